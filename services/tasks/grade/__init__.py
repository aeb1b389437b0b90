"""The grade task: training a rubric reward model on its own graded critiques (seed 004).

``reading.py`` reads the grade as the seed does, ``judge.py`` turns it into a judgement,
``evidence.py`` is what was read, ``reward.py`` the reward rule, ``result.py`` the wire
components, ``task.py`` the registry entry. The item model, ``GradeItem``, stays in
:mod:`services.protocol` with the other wire types (the contract module holds
``ScoreRequest``'s item union). No typed route: grade items go to ``/score``.
"""
