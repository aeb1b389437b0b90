"""What results echo back: the judged text, cut so a hostile megabyte input stays small."""

from __future__ import annotations

# A math answer longer than this was refused anyway; a program this long is still shown
# whole in practice, while a 10 MB one does not bloat the batch response.
MAX_ANSWER_ECHO = 4096
MAX_CODE_ECHO = 65_536


def preview(text: str | None, limit: int = MAX_ANSWER_ECHO) -> str | None:
    """``text`` if short enough, else its start and how much was left out."""
    if text is None or len(text) <= limit:
        return text
    return text[:limit] + f"… [{len(text) - limit} more characters]"
