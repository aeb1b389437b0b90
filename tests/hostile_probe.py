"""Programs that try one attack from inside the sandbox and say whether it worked."""

from __future__ import annotations

# The program prints "blocked" when the sandbox stops the attack and "escaped" when it does
# not: a test that expects "blocked" proves the attack failed.
_PROBE = """
def attempt():
{body}
try:
    attempt()
    print("escaped")
except Exception:
    print("blocked")
"""


def probe_program(body: str) -> str:
    """A Python program running ``body`` (indented as a function body) as the attack."""
    return _PROBE.format(body=body)
