"""Where a client sends its requests, and how it retries: :class:`ClientSettings`."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from services.contract.http_policy import HttpPolicy


class RewardServiceError(RuntimeError):
    """The service could not answer: unreachable after the retries, or it refused the
    request (any 4xx but 429). A reward or verdict is never made up."""


class ServiceSection(Protocol):
    """A config section naming the service (the trainer's ``service`` section)."""

    @property
    def url(self) -> Sequence[str]: ...

    @property
    def api_key(self) -> str | None: ...

    @property
    def max_batch(self) -> int: ...

    @property
    def http(self) -> HttpPolicy: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientSettings(HttpPolicy):
    """The service's URLs (one or more replicas), its key, the largest batch sent in one
    request, and the HTTP policy (timeouts, retries, backoff, 429 waits)."""

    urls: tuple[str, ...]
    api_key: str | None = None
    max_batch: int = 512

    def __post_init__(self) -> None:
        HttpPolicy.__post_init__(self)
        if self.max_batch < 1:
            raise ValueError("max_batch must be >= 1")

    @classmethod
    def for_urls(
        cls, urls: str | Sequence[str], api_key: str | None = None, **policy: Any
    ) -> ClientSettings:
        """Settings for one URL or several, trailing slashes dropped; ``policy`` takes
        :class:`HttpPolicy`'s fields (``timeout_s``, ``retries``, ...) and ``max_batch``."""
        given = (urls,) if isinstance(urls, str) else tuple(urls)
        return cls(urls=tuple(url.rstrip("/") for url in given), api_key=api_key, **policy)

    @classmethod
    def from_section(cls, section: ServiceSection, api_key: str | None = None) -> ClientSettings:
        """A config's ``service`` section, its :class:`HttpPolicy` taken whole; its own key
        wins over ``api_key``, which wins over the ``VERIFIER_API_KEY`` environment variable."""
        return cls(
            urls=tuple(section.url),
            api_key=section.api_key or api_key or os.environ.get("VERIFIER_API_KEY") or None,
            max_batch=section.max_batch,
            **dataclasses.asdict(section.http),
        )

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def url(self, first: int, attempt: int) -> str:
        """Attempt n of a request goes to the URL after the one attempt n - 1 used."""
        return self.urls[(first + attempt - 1) % len(self.urls)]
