"""Imported by the math worker pool's fork server: workers start warm.

Two things are slow the first time and fast after, and both are inherited by every worker
forked from this server (and by every replacement of a worker killed at its deadline):

* the LaTeX parser's prediction DFA. ANTLR builds it lazily, one grammar path at a time;
  with SLL parsing (``two_stage_parsing.py``) every prediction is cached in it, and a
  parse along paths already built costs a fraction of a cold one. Where the settings give
  a snapshot directory (``parser_snapshot.py``), the tables a previous warm-up built are
  loaded first, and written there after a warm-up that had none;
* sympy's lazily imported modules and caches behind the comparisons (``simplify``,
  ``as_set`` for relations, set and matrix equality).

``warm_up_set.py`` holds the answers parsed and the pairs compared here.
"""

from __future__ import annotations

from services.mathcheck import parser_snapshot
from services.mathcheck.symbolic import warm_up
from services.mathcheck.warm_up_set import WARM_UP_ANSWERS, WARM_UP_PAIRS

_directory = parser_snapshot.directory_from_environment()
_loaded = _directory is not None and parser_snapshot.load(_directory)
warm_up(WARM_UP_ANSWERS, WARM_UP_PAIRS)
if _directory is not None and not _loaded:
    parser_snapshot.save(_directory)
