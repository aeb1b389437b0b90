"""The rubric task: the served LLM grades a response against a rubric and a target score.

``wire.py`` is its item and typed route, ``judge.py`` asks the grader
(:mod:`services.verifier`) and holds its evidence, the grade; ``task.py`` is the reward
rule, the wire components and the registry entry.
"""
