"""The critique task: training a rubric reward model on its own graded critiques (seed 004,
whose ``data_source`` for these rows is ``'grade'``; ``grade`` is accepted on the wire as
this task's former name).

``reading.py`` reads the critique's grade as the seed does, ``judge.py`` turns it into a
judgement, ``evidence.py`` is what was read, ``reward.py`` the reward rule, ``result.py``
the wire components, ``task.py`` the registry entry. The item model, ``CritiqueItem``,
stays in :mod:`services.protocol` with the other wire types (the contract module holds
``ScoreRequest``'s item union). No typed route: critique items go to ``/score``.
"""
