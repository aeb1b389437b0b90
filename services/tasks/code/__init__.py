"""The code task: a program from the completion run against its tests in the sandbox (seed 003).

The judge is :class:`services.codecheck.scorer.CodeScorer` (extraction, test formats and
the sandboxed runs live in :mod:`services.codecheck`); the composition root builds it, as it
needs the sandbox. ``evidence.py`` is what it found, ``reward.py`` the reward rule,
``result.py`` the wire components, ``task.py`` the registry entry. The item model,
``CodeItem``, stays in :mod:`services.protocol` with the other wire types
(the contract module holds ``ScoreRequest``'s item union).
"""
