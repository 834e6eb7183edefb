"""Text helpers for page titles."""
import re


def title_case(text: str) -> str:
    """Capitalises every word of `text`, keeping the spacing."""
    return " ".join(word.capitalize() for word in text.split(" "))


def slugify(text: str, max_length: int = 50) -> str:
    """A URL slug for `text`: lowercase ASCII letters and digits joined by single dashes."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:max_length].rstrip("-")
