"""The code task: a program from the completion run against its tests in the sandbox (seed 003).

``judge.py`` is the judge, :class:`~services.tasks.code.judge.CodeJudge` (extraction, test
formats and the outcome cache live in :mod:`services.codecheck`, the sandbox in
:mod:`sandbox`); the composition root builds it, as it needs the sandbox. ``selection.py``
says which of an item's tests run (all, up to a limit), ``evidence.py`` is what it found,
``reward.py`` the reward rule, ``result.py`` the wire components, ``task.py`` the registry
entry. The item model, ``CodeItem``, stays in :mod:`services.protocol` with the
other wire types (the contract module holds ``ScoreRequest``'s item union).
"""
