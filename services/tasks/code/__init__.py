"""The code task: a program from the completion run against its tests in the sandbox (seed 003).

``wire.py`` is the item model and its route; ``options.py`` the task's own options;
``judge.py`` the judge, :class:`~services.tasks.code.judge.CodeJudge`, and what it found
(extraction, test formats and the outcome cache live in :mod:`services.codecheck`, the
sandbox in :mod:`sandbox`; the composition root builds the judge, as it needs the sandbox);
``selection.py`` says which of an item's tests run (all, up to a limit) and ``pacing.py`` how
many items start a turn of the event loop; ``task.py`` is the registry entry, the reward
rule and the wire components.
"""
