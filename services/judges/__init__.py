"""One judge per task: each turns the items of its task into judgements (see base.py)."""
