"""The verl adapter under its first name: ``pkg://trainer.adapters.verl`` keeps working.

The code lives in ``trainer/adapters/verl_reward.py``, a self-contained file that verl and
TinyV's fork can also load by path where the project is not installed.
"""

from trainer.adapters.verl_reward import (
    RESULT_KEYS,
    RewardError,
    RewardInputError,
    RewardServiceError,
    UnjudgedItemError,
    VerlScore,
    close_clients,
    compute_score,
    compute_score_async,
    compute_score_batch,
)

__all__ = [
    "RESULT_KEYS",
    "RewardError",
    "RewardInputError",
    "RewardServiceError",
    "UnjudgedItemError",
    "VerlScore",
    "close_clients",
    "compute_score",
    "compute_score_async",
    "compute_score_batch",
]
