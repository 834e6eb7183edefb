"""How long the sync client waits between attempts."""
import settings


def delays(attempts: int) -> list[float]:
    raise NotImplementedError
