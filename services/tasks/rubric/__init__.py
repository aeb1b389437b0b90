"""The rubric task: the served LLM grades a response against a rubric and a target score.

``judge.py`` asks the grader (:mod:`services.verifier`), ``evidence.py`` is its grade,
``reward.py`` the reward rule, ``result.py`` the wire components, ``task.py`` the registry
entry. The item model, ``RubricItem``, stays in :mod:`services.protocol` with the other
wire types (the contract module holds ``ScoreRequest``'s item union).
"""
