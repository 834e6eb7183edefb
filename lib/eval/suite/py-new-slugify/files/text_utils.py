"""Text helpers for page titles."""


def title_case(text: str) -> str:
    """Capitalises every word of `text`, keeping the spacing."""
    return " ".join(word.capitalize() for word in text.split(" "))
