"""How long the sync client waits between attempts."""
import settings


def delays(attempts: int) -> list[float]:
    if attempts < 0:
        raise ValueError("attempts must not be negative")
    count = min(attempts, settings.RETRY_MAX_ATTEMPTS)
    return [
        min(settings.RETRY_BASE_SECONDS * settings.RETRY_FACTOR**n, settings.RETRY_CAP_SECONDS)
        for n in range(count)
    ]
