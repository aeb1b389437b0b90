"""Errors raised by the sandbox."""


class SandboxUnavailable(Exception):
    """The requested language or isolation level cannot run here; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
