"""The choice task: a multiple-choice answer against the letter of the right choice.

``wire.py`` is its item and how a training row becomes one, ``judge.py`` reads the letter
the completion commits to and compares it, ``task.py`` is its reward rule (the request's
correct / wrong / no-answer rewards, plus the format terms), its wire components and its
registry entry.
"""
