"""Run-length encoding of strings."""


def encode(text: str) -> list[tuple[str, int]]:
    runs: list[tuple[str, int]] = []
    for char in text:
        if runs and runs[-1][0] == char:
            runs[-1] = (char, runs[-1][1] + 1)
        else:
            runs.append((char, 1))
    return runs


def decode(runs: list[tuple[str, int]]) -> str:
    parts = []
    for char, count in runs:
        if not isinstance(char, str) or len(char) != 1:
            raise ValueError(f"not a single character: {char!r}")
        if count < 1:
            raise ValueError(f"count must be at least 1, got {count}")
        parts.append(char * count)
    return "".join(parts)
