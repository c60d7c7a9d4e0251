"""The ASGI app of `necro serve`: static files and a small JSON API over the one Game API.

Every route is a thin call into Game (current, apply, why_illegal, undo, to_json/from_json,
log_lines, view) through a Session; answers are refused with the engine's own reason. A game's
routes need one of its keys (the `X-Necro-Key` header; the event stream's `key` parameter): a
seat's key reads and plays that seat only, a spectator's reads the public view. The engine runs in
worker threads, never on the event loop; every change is stored, then pushed to the game's browsers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from necronomicon.interpreter.engine.decisions import IllegalAction
from necronomicon.interpreter.engine.game import GameError

from necronomicon.tools.words import words_for

from . import checks
from .board import board_json
from .games import Games
from .guard import Door, Guard, RequestRefused, read_capped, read_json
from .log_pages import log_page
from .new_game import auto_setting, setup_offer
from .push import Bell
from .replays import Replays
from .sessions import MAX_BOT_SECONDS, SEATS, ContentCache, Session, SessionError
from .store import GameStore
from necronomicon.interpreter.engine import phases

STATIC = Path(__file__).parent / "static"
NO_KEY = "this game needs its link's key (the part after #key= in the link you were sent)"


def _error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _guarded(fn: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """Turn the engine's and the door's refusals into JSON errors a person can read (never a traceback)."""
    async def route(request: Request) -> Response:
        try:
            return await fn(request)
        except IllegalAction as exc:
            return _error(exc.code, exc.message)
        except RequestRefused as exc:
            return _error(exc.code, str(exc), exc.status)
        except (SessionError, GameError) as exc:
            return _error("refused", str(exc))
    return route


@dataclass
class Access:
    """A request's game and what its key may do there."""

    gid: str
    session: Session
    held: tuple[str, ...]   # the human seats the key holds
    spectator: bool = False
    everyone: bool = field(default=False)   # the key holds every human seat (hot-seat at one screen)

    def need_seat(self) -> None:
        if self.spectator:
            raise RequestRefused("a spectator's link can watch, not play", 403)


def _view_of(s: Session, viewer: str | None, a: Access) -> dict[str, Any]:
    g = s.game
    board = board_json(g.content, g.layout, g.view(viewer), g.log, phases.ritual_track(g.rules), g)
    d = g.current()
    board.update({"seats": s.seats, "steps": len(g.choices), "humans": [p for p in s.humans if p in a.held],
                  "held": list(a.held), "spectator": a.spectator, "people": s.humans, "version": s.version, "paused": s.paused,
                  "bot_to_move": d is not None and d.player in s.agents,
                  "auto": s.auto_of(viewer).as_json() if viewer in a.held else None})
    return board


def create_app(content_dirs: list[Path] | None = None, expansions: list[str] | None = None,
               db: Path | None = None, door: Door | None = None,
               max_bot_seconds: float = MAX_BOT_SECONDS) -> Guard:
    """The web board's app over the content in `content_dirs` (layered on the built-in content),
    its games kept in the SQLite file `db` (in memory when None), behind `door` (the names it
    answers to and its body caps; this machine's own names when None)."""
    contents = ContentCache([Path(p) for p in content_dirs or []], expansions or [])
    store = GameStore(db)
    games = Games(contents, store, max_bot_seconds)
    replays = Replays(contents)
    bell = Bell()
    door = door or Door()

    async def body(request: Request, what: str, empty: Any = None) -> dict[str, Any]:
        return checks.body_dict(await read_json(request, door.max_json, empty), what)

    def access(request: Request, key: str | None = None) -> Access:
        gid = request.path_params["gid"]
        key = key if key is not None else request.headers.get("x-necro-key", "")
        s = games.get(gid)
        held = s.seats_of(key) if key else None
        if held is None and key and s.watches(key):
            return Access(gid, s, (), spectator=True)
        if held is None:
            raise RequestRefused(NO_KEY if not key else "this link's key does not open this game", 403)
        return Access(gid, s, held, everyone=set(s.humans) <= set(held))

    async def changed(a: Access, work: Callable[[], Any]) -> Any:
        """Run `work` on the game in a worker thread under its lock, store the game, push the change."""
        def locked() -> Any:
            with a.session.lock:
                out = work()
                games.keep(a.gid, a.session)
                return out
        out = await run_in_threadpool(locked)
        bell.ring(a.gid)
        return out

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    @_guarded
    async def setup(request: Request) -> Response:
        asked = request.query_params.get("expansions")
        chosen = None if asked is None else [e for e in asked.split(",")[:checks.MAX_LIST] if e]
        content = await run_in_threadpool(contents.get, chosen)
        return JSONResponse({**setup_offer(content), "expansions": contents.available_expansions(),
                             "chosen_expansions": contents.default, "seats": SEATS,
                             "max_bot_seconds": max_bot_seconds})

    @_guarded
    async def new_game(request: Request) -> Response:
        spec = await body(request, "new game")
        gid, links = await run_in_threadpool(games.new, spec)
        return JSONResponse({"id": gid, "links": links})

    @_guarded
    async def load(request: Request) -> Response:
        sent = await body(request, "upload")
        gid, links = await run_in_threadpool(games.load, sent.get("save", sent), sent.get("seats"), sent.get("mine"))
        return JSONResponse({"id": gid, "links": links})

    @_guarded
    async def show(request: Request) -> Response:
        a = await run_in_threadpool(access, request)
        asked = request.query_params.get("as") or None
        if asked is not None and asked not in a.held:
            raise RequestRefused(f"this link does not hold the seat '{asked[:60]}'", 403)

        def view() -> dict[str, Any]:
            with a.session.lock:
                d = a.session.game.current()
                who = asked or (d.player if d is not None and d.player in a.held else (a.held or (None,))[0])
                return _view_of(a.session, who, a)
        return JSONResponse(await run_in_threadpool(view))

    @_guarded
    async def answer(request: Request) -> Response:
        a = await run_in_threadpool(access, request)
        sent = await body(request, "answer")
        player = checks.text(sent.get("as", ""), "as")
        said = checks.text(sent.get("answer", ""), "the answer")
        a.need_seat()
        if player not in a.held:
            raise IllegalAction("not-your-seat", f"this link does not play {player[:60]}")
        out = await changed(a, lambda: (a.session.answer(player, said), _view_of(a.session, player, a))[1])
        return JSONResponse(out)

    @_guarded
    async def auto(request: Request) -> Response:
        a = await run_in_threadpool(access, request)
        sent = await body(request, "auto-answer setting")
        player = checks.text(sent.get("as", ""), "as")
        a.need_seat()
        if player not in a.held:
            raise IllegalAction("not-your-seat", f"this link does not play {player[:60]}")
        setting = auto_setting(sent, a.session.auto_of(player))

        def store() -> dict[str, Any]:
            a.session.auto[player] = setting
            a.session.auto_steps()   # a decision waiting now may need no person any more
            return _view_of(a.session, player, a)
        return JSONResponse(await changed(a, store))

    @_guarded
    async def why(request: Request) -> Response:
        a = await run_in_threadpool(access, request)
        a.need_seat()
        said = checks.text((await body(request, "question")).get("answer", ""), "the answer")

        def reason() -> Any:
            with a.session.lock:
                why = a.session.game.why_illegal(said)
                game = a.session.game
                return why and (why[0], words_for(game.content).refusal(*why, game.current(), game))
        r = await run_in_threadpool(reason)
        return JSONResponse({"legal": r is None, "error": r and r[0], "message": r and r[1]})

    @_guarded
    async def bot(request: Request) -> Response:
        a = await run_in_threadpool(access, request)
        a.need_seat()
        moved = await changed(a, a.session.bot_step)
        return JSONResponse({"moved": moved, "steps": len(a.session.game.choices)})

    @_guarded
    async def pause(request: Request) -> Response:
        a = await run_in_threadpool(access, request)
        a.need_seat()
        sent = await body(request, "pause", {})
        if sent.get("paused", True) is not False:
            a.session.stop_thinking(pause=True)   # a bot mid-thought drops its answer
        else:
            a.session.paused = False
        await changed(a, lambda: None)
        return JSONResponse({"paused": a.session.paused})

    @_guarded
    async def undo(request: Request) -> Response:
        a = await run_in_threadpool(access, request)
        a.need_seat()
        sent = await body(request, "undo", {})
        s = a.session
        s.stop_thinking()   # a person's request comes before a bot's thought
        if sent.get("to_event") is not None:
            seq = checks.whole(sent["to_event"], "to_event", 0, 10**9)
            n = await changed(a, lambda: s.undo_to_event(seq, a.held))
        elif sent.get("n") is None:
            n = await changed(a, lambda: s.undo_mine(a.held))
        else:
            k = checks.whole(sent["n"], "n", 1, 10**9)
            n = await changed(a, lambda: s.undo(k, a.held))
        return JSONResponse({"undone": n, "steps": len(s.game.choices)})

    def whole_record(a: Access) -> None:
        if not a.everyone and a.session.game.current() is not None:
            raise RequestRefused("the save and the log show every hand: until the game is over, only a link "
                                 "holding every person's seat may take them", 403)

    @_guarded
    async def save(request: Request) -> Response:
        a = await run_in_threadpool(access, request)
        whole_record(a)

        def saved() -> dict[str, Any]:
            with a.session.lock:
                return a.session.save()
        return JSONResponse(await run_in_threadpool(saved),
                            headers={"Content-Disposition": 'attachment; filename="necronomicon-save.json"'})

    @_guarded
    async def log(request: Request) -> Response:
        a = await run_in_threadpool(access, request)
        whole_record(a)

        def lines() -> str:
            with a.session.lock:
                return "\n".join(a.session.game.log_lines()) + "\n"
        return PlainTextResponse(await run_in_threadpool(lines),
                                 headers={"Content-Disposition": 'attachment; filename="necronomicon-log.jsonl"'})

    def before(request: Request) -> int:
        return checks.whole(request.query_params.get("before", ""), "before", 1, 10**9)

    @_guarded
    async def lines(request: Request) -> Response:
        """The page of readable log lines before the line `before` (any key: the board shows them all)."""
        a = await run_in_threadpool(access, request)
        seq = before(request)

        def page() -> dict[str, Any]:
            with a.session.lock:
                return log_page(a.session.game.log, words_for(a.session.game.content), seq)
        return JSONResponse(await run_in_threadpool(page))

    @_guarded
    async def events(request: Request) -> Response:
        a = await run_in_threadpool(access, request, request.query_params.get("key", ""))
        if bell.listening >= 256:
            raise RequestRefused("too many open games on this server right now", 503)
        return StreamingResponse(bell.stream(a.gid, lambda: a.session.version), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    @_guarded
    async def new_replay(request: Request) -> Response:
        raw = await read_capped(request, door.max_upload, "log")
        rid, r = await run_in_threadpool(replays.open, raw.decode("utf-8", errors="replace"))
        return JSONResponse({"id": rid, "total": len(r.choices), "rounds": max(r.rounds), "digest": r.digest})

    @_guarded
    async def show_replay(request: Request) -> Response:
        q = request.query_params
        where = {k: checks.whole(q[k], k, 0, 10**9) for k in ("event", "round", "step") if q.get(k)}
        return JSONResponse(await run_in_threadpool(replays.board, request.path_params["rid"], where))

    @_guarded
    async def replay_lines(request: Request) -> Response:
        seq = before(request)
        return JSONResponse(await run_in_threadpool(replays.lines, request.path_params["rid"], seq))

    routes = [
        Route("/", index),
        Route("/api/setup", setup),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/load", load, methods=["POST"]),
        Route("/api/games/{gid}", show),
        Route("/api/games/{gid}/answer", answer, methods=["POST"]),
        Route("/api/games/{gid}/why", why, methods=["POST"]),
        Route("/api/games/{gid}/auto", auto, methods=["POST"]),
        Route("/api/games/{gid}/bot", bot, methods=["POST"]),
        Route("/api/games/{gid}/pause", pause, methods=["POST"]),
        Route("/api/games/{gid}/undo", undo, methods=["POST"]),
        Route("/api/games/{gid}/save", save),
        Route("/api/games/{gid}/log", log),
        Route("/api/games/{gid}/events", events),
        Route("/api/games/{gid}/lines", lines),
        Route("/api/replays", new_replay, methods=["POST"]),
        Route("/api/replays/{rid}", show_replay),
        Route("/api/replays/{rid}/lines", replay_lines),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    guard = Guard(Starlette(routes=routes), door)
    guard.games, guard.bell, guard.replays = games, bell, replays   # for tests, and for the server's stop
    return guard
