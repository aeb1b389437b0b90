"""Items of a large request started a slice per turn of the event loop, not all at once.

A code item's own work on the event loop is small (finding the program, the format score,
its run's key and cache lookup, handing its tests to the sandbox), but a request's items
all start in the same turn of the loop: 4,096 of them held it for seconds, and ``/health``
and every other request waited. A :class:`Pacer` lets ``per_turn`` items through a turn
and the next ones on the turns after, each turn after the loop has polled its sockets.
"""

from __future__ import annotations

import asyncio
from collections import deque

# Items started per turn of the event loop: a few milliseconds of work.
PER_TURN = 32


class Pacer:
    """At most ``per_turn`` callers of :meth:`turn` go on in one turn of the event loop,
    in the order they came."""

    def __init__(self, per_turn: int = PER_TURN) -> None:
        self._per_turn = max(1, per_turn)
        self._left = self._per_turn
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._next_turn: asyncio.Handle | None = None

    async def turn(self) -> None:
        """Return in this turn if it has room, else in a later one."""
        loop = asyncio.get_running_loop()
        if self._next_turn is None:
            self._next_turn = loop.call_soon(self._new_turn)
        if self._left > 0 and not self._waiting:
            self._left -= 1
            return
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiting.append(waiter)
        await waiter

    def _new_turn(self) -> None:
        self._left = self._per_turn
        while self._left > 0 and self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():  # a cancelled caller gives its place up
                waiter.set_result(None)
                self._left -= 1
        self._next_turn = None
        if self._waiting:
            self._next_turn = asyncio.get_running_loop().call_soon(self._new_turn)
