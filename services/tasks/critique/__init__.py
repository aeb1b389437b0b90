"""The critique task: training a rubric reward model on its own graded critiques (seed 004,
whose ``data_source`` for these rows is ``'grade'``; ``grade`` is accepted on the wire as
this task's former name).

``wire.py`` is its item (no typed route: critique items go to ``/score``), ``reading.py``
reads the critique's grade as the seed does, ``judge.py`` turns it into a judgement with
its evidence, ``task.py`` is the reward rule, the wire components and the registry entry.
"""
