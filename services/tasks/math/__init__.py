"""The math task: a completion's final answer against a reference answer (seed 001).

``judge.py`` extracts and compares (:mod:`services.mathcheck`), ``evidence.py`` is what it
found, ``verification.py`` how the LLM verifier refines the verdict, ``reward.py`` the
reward rule, ``result.py`` the wire components, ``task.py`` the registry entry. The item
model, ``MathItem``, stays in :mod:`services.contract.protocol` with the other wire types (the
contract module holds ``ScoreRequest``'s item union).
"""
