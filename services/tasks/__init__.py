"""The tasks the service scores, one folder each.

A task's folder holds its judge, its typed evidence (``Judgement[<Task>Evidence]``), its
reward rule, its result components and its registry entry (``task.py``);
:mod:`services.tasks.registry` lists the tasks, and is all the scorer, the LLM stage and
the API know of them. :mod:`services.tasks.entry` says what an entry holds and
:mod:`services.tasks.judging` what a judge is.
"""
