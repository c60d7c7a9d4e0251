"""The web board's door: which requests reach the app at all, and how a JSON body is read.

`Guard` is ASGI middleware run before any route: a request whose Host is not one of the server's
names is refused (against DNS rebinding, as Jupyter's server does); a write (any method but GET and
HEAD) from another origin is refused (its Origin, or a `Sec-Fetch-Site: cross-site`); a write that
declares a body larger than the cap is refused before a byte of it is read. `read_json` reads a body
in chunks up to its cap, and refuses one that is not `application/json` or nests deeper than
MAX_DEPTH before the parser sees it.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from starlette.requests import Request

MAX_JSON = 2_000_000     # a JSON request (a save included) larger than this is refused
MAX_UPLOAD = 20_000_000  # a log uploaded to the replay viewer larger than this is refused
MAX_DEPTH = 64           # brackets nested deeper than this: refused before parsing

LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKETS = re.compile(rb"[^\[\]{}]")


class RequestRefused(Exception):
    """A request the server will not serve; `status` is its HTTP status, `code` its kind (`refused`;
    `bad-request` for a value that does not fit), the message is shown."""

    def __init__(self, message: str, status: int = 400, code: str = "refused") -> None:
        super().__init__(message)
        self.status = status
        self.code = code


@dataclass
class Door:
    """The names this server answers to (without port) and its body caps."""

    hosts: set[str] = field(default_factory=lambda: set(LOCAL_NAMES))
    max_json: int = MAX_JSON
    max_upload: int = MAX_UPLOAD

    def host_ok(self, host_header: str) -> bool:
        return _hostname(host_header) in self.hosts

    def origin_ok(self, origin: str, host_header: str) -> bool:
        """An Origin is this server's own: http(s) on an allowed name, with the request's port."""
        m = re.fullmatch(r"https?://(\[[^\]]+\]|[^/:]+)(:\d+)?", origin.strip())
        if m is None:
            return False        # "null" (a sandboxed or privacy-stripped page) included
        return _hostname(m.group(1)) in self.hosts and _port(origin) == _port(host_header)


def _hostname(value: str) -> str:
    v = value.strip().lower()
    if v.startswith("["):
        return v[1:v.find("]")] if "]" in v else v
    return v.rsplit(":", 1)[0] if v.count(":") == 1 else v


def _port(value: str) -> str:
    v = value.strip().lower().split("://", 1)[-1]
    tail = v[v.rfind("]") + 1:] if v.startswith("[") else v
    return tail.rsplit(":", 1)[1] if tail.count(":") == 1 else ""


class Guard:
    """ASGI middleware: refuse foreign Hosts, cross-origin writes and declared oversized bodies."""

    def __init__(self, app: Callable[..., Awaitable[None]], door: Door) -> None:
        self.app = app
        self.door = door
        self.games: Any = None   # the app's games, bell and replays, set by create_app
        self.bell: Any = None
        self.replays: Any = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        why = self.refusal(scope["method"], headers)
        if why is None:
            return await self.app(scope, receive, send)
        status, message = why
        body = json.dumps({"error": "refused", "message": message}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    def refusal(self, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
        """(status, reason) when the request may not reach the app; None when it may."""
        host = headers.get("host", "")
        if not self.door.host_ok(host):
            return 403, (f"this server does not answer to the name '{host[:80]}'; "
                         "its owner can add it with necro serve --allow-host NAME")
        if method in ("GET", "HEAD"):
            return None
        origin = headers.get("origin")
        if origin is not None and not self.door.origin_ok(origin, host):
            return 403, f"a write from another site ({origin[:80]}) is refused"
        if headers.get("sec-fetch-site") == "cross-site":
            return 403, "a write from another site is refused"
        length = headers.get("content-length", "0")
        if not length.isdigit() or int(length) > self.door.max_upload:
            return 413, f"the body is larger than {self.door.max_upload:,} bytes"
        return None


async def read_capped(request: Request, cap: int, what: str) -> bytes:
    """The request body, read in chunks and refused as soon as it passes `cap` (never held whole)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise RequestRefused(f"the {what} is larger than {cap:,} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


def nesting(raw: bytes) -> int:
    """How deep a JSON text's brackets nest (brackets inside strings not counted)."""
    brackets = _NOT_BRACKETS.sub(b"", _STRINGS.sub(b"", raw))
    depth = deepest = 0
    for b in brackets:
        depth += 1 if b in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


async def read_json(request: Request, cap: int = MAX_JSON, empty: Any = None) -> Any:
    """A request's JSON body: only `application/json`, at most `cap` bytes and MAX_DEPTH deep;
    `empty` for no body at all (when the route allows it)."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    raw = await read_capped(request, cap, "request")
    if not raw.strip() and empty is not None:
        return empty
    if kind != "application/json":
        raise RequestRefused(f"a JSON body must be sent as application/json, not '{kind[:60] or 'nothing'}'", 415)
    if nesting(raw) > MAX_DEPTH:
        raise RequestRefused(f"the JSON nests deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RequestRefused(f"the request is not JSON: {exc}") from None
