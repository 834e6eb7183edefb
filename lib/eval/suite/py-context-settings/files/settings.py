"""Settings shared by the sync client."""

SYNC_URL = "https://sync.example.invalid/v2"
RETRY_BASE_SECONDS = 0.5
RETRY_FACTOR = 3
RETRY_CAP_SECONDS = 20.0
RETRY_MAX_ATTEMPTS = 8
