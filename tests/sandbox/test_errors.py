"""The sandbox's error: the reason it cannot run, as the message and as a field."""

from __future__ import annotations

import pytest

from sandbox.errors import SandboxUnavailable


def test_sandbox_unavailable_carries_its_reason() -> None:
    with pytest.raises(SandboxUnavailable, match="bubblewrap is not installed") as caught:
        raise SandboxUnavailable("bubblewrap is not installed")
    assert caught.value.reason == "bubblewrap is not installed"
