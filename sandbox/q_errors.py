"""Reading q's stderr: q errors, workspace exhaustion, licence failures."""

from __future__ import annotations

import re

from .models import Failure, Limits

# q signals errors as a line starting with a single quote: 'type, 'length, 'rank, 'nyi,
# 'foo (a signal), '2024.01.01T... msg (licence/daemon failures carry a timestamp).
_Q_ERROR_LINE = re.compile(r"^'(\S.*)$", re.MULTILINE)

# Error tokens and phrases q uses when the licence is missing, invalid or not usable here.
_LICENSE_TOKENS = {
    "kc.lic",
    "k4.lic",
    "host",
    "exp",
    "expired",
    "cores",
    "user",
    "wha",
    "licence",
    "license",
}
_LICENSE_PHRASE = re.compile(
    r"(kc\.lic|k4\.lic|licen[cs]e|licensing daemon|expired|unlicensed|"
    r"couldn't connect to (?:the )?licen|embedq)",
    re.IGNORECASE,
)
_MEMORY = re.compile(r"(^'?-w abort|^'wsfull|wsfull)", re.MULTILINE)

NOT_EMBEDDED = (
    "this licence does not allow the embedded q engine that pykx ships: KDB-X needs a licence "
    "with its pykx and embedq features (a licence for the q binary alone is refused)"
)
KC_LIC_NEEDS_NETWORK = (
    "an on-demand kc.lic licence must reach the KX licence daemon over the network, which "
    "the sandbox forbids (no network namespace access); use an offline k4.lic instead "
    "(KDB_K4LICENSE_B64, or a QLIC directory holding k4.lic)"
)


def q_errors(stderr: str) -> list[str]:
    """The q error tokens in ``stderr`` (without the leading quote), in order."""
    return [m.group(1).strip() for m in _Q_ERROR_LINE.finditer(stderr)]


def has_q_error(stderr: str) -> bool:
    return bool(_Q_ERROR_LINE.search(stderr))


def is_memory_error(stderr: str) -> bool:
    return bool(_MEMORY.search(stderr))


def license_problem(stderr: str) -> str | None:
    """A human-readable diagnosis if q's stderr shows a licence failure, else None.

    q checks its licence before running the script, so only the start of stderr is
    considered: the first q error token, or licence wording in the first lines.
    """
    errors = q_errors(stderr)
    first = errors[0] if errors else ""
    token = first.split()[0].lower() if first else ""
    head = "\n".join(stderr.strip().splitlines()[:3])
    if token not in _LICENSE_TOKENS and not _LICENSE_PHRASE.search(head):
        return None
    shown = first or head[:200]
    msg = f"q licence problem ('{shown})" if first else f"q licence problem ({shown})"
    if "embedq" in head.lower():
        return f"{msg}: {NOT_EMBEDDED}"
    if "kc.lic" in head.lower() or "daemon" in head.lower():
        return f"{msg}: {KC_LIC_NEEDS_NETWORK}"
    return (
        f"{msg}: check QLIC / KDB_K4LICENSE_B64; the licence must be valid for this "
        "host and core count and not expired"
    )


class QStderr:
    """q's reading of a run's stderr (``classify.StderrReading``)."""

    def failure(self, stderr: str, limits: Limits) -> tuple[Failure, str] | None:
        problem = license_problem(stderr)
        if problem:
            return Failure.SANDBOX_ERROR, problem
        if is_memory_error(stderr):
            return Failure.MEMORY, f"q workspace exhausted: {stderr.strip()[:200]}"
        return None

    def error(self, stderr: str) -> str | None:
        if not has_q_error(stderr):
            return None
        return "q error: '" + "; '".join(q_errors(stderr))[:300]


Q_STDERR = QStderr()
