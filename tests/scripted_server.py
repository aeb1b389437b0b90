"""A real HTTP server on a loopback port that answers from a script, for the tests of the
project's HTTP clients (the HTTP policy, the verifier's transport)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ScriptedServer(ThreadingHTTPServer):
    """Answers request n with the n-th ``(status, body)`` of its script (the last one
    repeats; a ``bytes`` body is sent as it is, anything else as JSON), after ``delay_s``,
    and records each request's path and headers."""

    daemon_threads = True

    def __init__(self, script: list[tuple[int, Any]], delay_s: float = 0.0) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script = script
        self.delay_s = delay_s
        self.seen: list[tuple[str, dict[str, str]]] = []
        self.lock = threading.Lock()
        self.url = f"http://127.0.0.1:{self.server_address[1]}"

    @property
    def requests(self) -> int:
        return len(self.seen)


class _Handler(BaseHTTPRequestHandler):
    server: ScriptedServer

    def _answer(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        server = self.server
        with server.lock:
            server.seen.append((self.path, dict(self.headers.items())))
            status, body = server.script[min(server.requests, len(server.script)) - 1]
        if server.delay_s:
            threading.Event().wait(server.delay_s)
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = _answer
    do_POST = _answer

    def log_message(self, format: str, *args: Any) -> None:
        return


@contextmanager
def serving(script: list[tuple[int, Any]], delay_s: float = 0.0) -> Iterator[ScriptedServer]:
    """A :class:`ScriptedServer` answering in a thread until the block ends."""
    server = ScriptedServer(script, delay_s)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
