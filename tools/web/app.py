"""The ASGI app of `necro serve`: static files and a small JSON API over the one Game API.

Every route is a thin call into Game (current, apply, why_illegal, undo, to_json/from_json,
log_lines, view) through a Session; answers are refused with the engine's own reason.
"""
from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from interpreter.engine.decisions import IllegalAction
from interpreter.engine.game import GameError

from tools.words import words_for

from .board import board_json
from .replays import Replay, open_replay
from .sessions import SEATS, ContentCache, Session, SessionError, Sessions

STATIC = Path(__file__).parent / "static"
MAX_BODY = 20_000_000  # a save or a log larger than this is refused


def _error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the engine's refusals into JSON errors a person can read (never a traceback)."""
    async def route(request: Request) -> Response:
        try:
            return await fn(request)
        except IllegalAction as exc:
            return _error(exc.code, exc.message)
        except (SessionError, GameError) as exc:
            return _error("refused", str(exc))
        except json.JSONDecodeError as exc:
            return _error("bad-json", f"the request is not JSON: {exc}")
        except (ValueError, TypeError, AttributeError) as exc:
            return _error("bad-request", f"the request does not fit this route: {exc}")
    return route


async def _capped_body(request: Request, what: str) -> bytes:
    """The request body, read in chunks and refused as soon as it passes MAX_BODY (never held whole)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise SessionError(f"the {what} is larger than {MAX_BODY:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _body(request: Request) -> Any:
    raw = await _capped_body(request, "upload")
    return json.loads(raw or b"{}")


def _view_of(s: Session, viewer: str | None) -> dict[str, Any]:
    g = s.game
    layout = g.layout
    board = board_json(g.content, layout, g.view(viewer), g.log, g.ritual_track(), g)
    d = g.current()
    board.update({"seats": s.seats, "steps": len(g.choices), "humans": s.humans,
                  "bot_to_move": d is not None and d.player in s.agents})
    return board


def create_app(content_dirs: list[Path] | None = None, expansions: list[str] | None = None) -> Starlette:
    """The web board's app over the content in `content_dirs` (layered on the built-in content)."""
    contents = ContentCache([Path(p) for p in content_dirs or []], expansions or [])
    sessions = Sessions(contents)
    replays: dict[str, Replay] = {}
    replay_ids = itertools.count(1)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    @_guarded
    async def setup(request: Request) -> Response:
        asked = request.query_params.get("expansions")
        content = contents.get(None if asked is None else [e for e in asked.split(",") if e])
        from tools.views.colours import faction_colours
        m = content.model
        colours = faction_colours(m, sorted(m.factions))
        return JSONResponse({
            "rulesets": [{"id": r.id, "name": r.name, "players": r.get("players", []),
                          "default": bool(r.get("default")), "default_factions": r.get("default-factions", {})}
                         for r in m.rulesets.values()],
            "factions": [{"id": f.id, "name": f.name, "colour": colours[f.id], "expansion": f.expansion}
                         for f in sorted(m.factions.values(), key=lambda f: f.id)],
            "expansions": contents.available_expansions(), "chosen_expansions": contents.default, "seats": SEATS})

    @_guarded
    async def new_game(request: Request) -> Response:
        return JSONResponse({"id": sessions.new(await _body(request))})

    @_guarded
    async def show(request: Request) -> Response:
        s = sessions.get(request.path_params["gid"])
        with s.lock:
            return JSONResponse(_view_of(s, request.query_params.get("as") or None))

    @_guarded
    async def answer(request: Request) -> Response:
        s = sessions.get(request.path_params["gid"])
        body = await _body(request)
        with s.lock:
            s.answer(str(body.get("as")), str(body.get("answer", "")))
            return JSONResponse(_view_of(s, str(body.get("as"))))

    @_guarded
    async def why(request: Request) -> Response:
        s = sessions.get(request.path_params["gid"])
        body = await _body(request)
        with s.lock:
            reason = s.game.why_illegal(str(body.get("answer", "")))
        said = words_for(s.game.content).text(reason[1]) if reason else None   # the reason in content names
        return JSONResponse({"legal": reason is None, "error": reason and reason[0], "message": said})

    @_guarded
    async def bot(request: Request) -> Response:
        s = sessions.get(request.path_params["gid"])
        with s.lock:
            moved = s.bot_step()
            return JSONResponse({"moved": moved, "steps": len(s.game.choices)})

    @_guarded
    async def undo(request: Request) -> Response:
        s = sessions.get(request.path_params["gid"])
        body = await _body(request)
        with s.lock:
            if body.get("to_event") is not None:
                n = s.undo_to_event(int(body["to_event"]))
            elif body.get("n") is None:
                n = s.undo_mine()
            else:
                n = body["n"]
                s.game.undo(n)
            return JSONResponse({"undone": n, "steps": len(s.game.choices)})

    @_guarded
    async def save(request: Request) -> Response:
        s = sessions.get(request.path_params["gid"])
        with s.lock:
            data = s.save()
        return JSONResponse(data, headers={"Content-Disposition": 'attachment; filename="necronomicon-save.json"'})

    @_guarded
    async def log(request: Request) -> Response:
        s = sessions.get(request.path_params["gid"])
        with s.lock:
            text = "\n".join(s.game.log_lines()) + "\n"
        return PlainTextResponse(text, headers={"Content-Disposition": 'attachment; filename="necronomicon-log.jsonl"'})

    @_guarded
    async def load(request: Request) -> Response:
        body = await _body(request)
        return JSONResponse({"id": sessions.load(body.get("save", body), body.get("seats"))})

    @_guarded
    async def new_replay(request: Request) -> Response:
        raw = await _capped_body(request, "log")
        r = open_replay(contents, raw.decode("utf-8", errors="replace"))
        rid = f"r{next(replay_ids)}"
        replays[rid] = r
        return JSONResponse({"id": rid, "total": len(r.choices), "rounds": max(r.rounds), "digest": r.digest})

    @_guarded
    async def show_replay(request: Request) -> Response:
        rid = request.path_params["rid"]
        if rid not in replays:
            raise SessionError(f"no replay '{rid}' on this server")
        r = replays[rid]
        q = request.query_params
        with r.lock:
            if q.get("event"):
                r.goto(r.event_step(int(q["event"])))
            elif q.get("round"):
                r.goto(r.round_start(int(q["round"])))
            elif q.get("step"):
                r.goto(int(q["step"]))
            g = r.game
            view = g.view(None)
            view["state"] = g.s.to_dict()   # a replay is a public record: every value shown
            board = board_json(g.content, g.layout, view, g.log, g.ritual_track(), g)
            for f in board["factions"]:
                f["own"] = True
            d = g.current()
            board.update({"step": r.step, "total": len(r.choices), "seats": {}, "humans": [],
                          "next": {"player": d.player, "prompt": d.prompt, "answer": r.choices[r.step],
                                   "question": words_for(g.content).question(d, g),
                                   "answer_words": words_for(g.content).text(r.choices[r.step])}
                          if d is not None and r.step < len(r.choices) else None,
                          "digest_ok": (g.digest() == r.digest) if r.step == len(r.choices) and r.digest else None})
        return JSONResponse(board)

    routes = [
        Route("/", index),
        Route("/api/setup", setup),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/load", load, methods=["POST"]),
        Route("/api/games/{gid}", show),
        Route("/api/games/{gid}/answer", answer, methods=["POST"]),
        Route("/api/games/{gid}/why", why, methods=["POST"]),
        Route("/api/games/{gid}/bot", bot, methods=["POST"]),
        Route("/api/games/{gid}/undo", undo, methods=["POST"]),
        Route("/api/games/{gid}/save", save),
        Route("/api/games/{gid}/log", log),
        Route("/api/replays", new_replay, methods=["POST"]),
        Route("/api/replays/{rid}", show_replay),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)
