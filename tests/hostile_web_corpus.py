"""Hostile web requests (issue 30's acceptance, issue 31's door), generated: each one is sent to a
fresh web board holding one game, and must be refused with a 4xx and one JSON line (never a 500,
a traceback or a hang), leaving that game exactly as it was. `benchmarks/hostile.py` runs each in
its own process under its time and memory limits (section `web`)."""
from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any, Callable

from tests.hostile_corpus import Case, Outcome

BASE = "http://127.0.0.1:8765"
JSON = {"content-type": "application/json"}
THREE = ["great-cthulhu", "crawling-chaos", "black-goat"]

# what: (method, path under the game ("" = a route of its own), headers beyond the seat key, body)
Request = tuple[str, str, dict[str, str], bytes]


def _spec(**extra: Any) -> bytes:
    return json.dumps({"ruleset": "multiplayer", "factions": THREE, "seed": 1, **extra}).encode()


BODIES: dict[str, Request] = {
    "new-game:200000-open-brackets": ("POST", "/api/games", JSON, b"[" * 200_000),
    "new-game:deep-objects": ("POST", "/api/games", JSON, b'{"a":' * 20_000 + b"1" + b"}" * 20_000),
    "new-game:seed-1e400": ("POST", "/api/games", JSON, b'{"ruleset": "multiplayer", "seed": 1e400}'),
    "new-game:seed-10^30": ("POST", "/api/games", JSON, _spec(seed=10**30)),
    "new-game:seed-negative": ("POST", "/api/games", JSON, _spec(seed=-5)),
    "new-game:seed-a-string": ("POST", "/api/games", JSON, _spec(seed="one")),
    "new-game:expansions-a-string": ("POST", "/api/games", JSON, _spec(expansions="azathoth")),
    "new-game:expansions-repeated": ("POST", "/api/games", JSON, _spec(expansions=["azathoth"] * 5000)),
    "new-game:factions-numbers": ("POST", "/api/games", JSON, _spec(factions=[1, 2, 3])),
    "new-game:unknown-ruleset": ("POST", "/api/games", JSON, _spec(ruleset="chess")),
    "new-game:a-bot-of-an-hour": ("POST", "/api/games", JSON, _spec(seats={"black-goat": "mcts:3600s"})),
    "new-game:not-utf8": ("POST", "/api/games", JSON, b"\xff\xfe\x00{"),
    "new-game:text-plain": ("POST", "/api/games", {"content-type": "text/plain"}, _spec()),
    "new-game:foreign-origin": ("POST", "/api/games", {**JSON, "origin": "http://evil.example"}, _spec()),
    "new-game:foreign-host": ("POST", "/api/games", {**JSON, "host": "evil.example"}, _spec()),
    "new-game:declared-terabyte": ("POST", "/api/games", {**JSON, "content-length": str(10**12)}, b"{}"),
    "load:200000-open-brackets": ("POST", "/api/load", JSON, b"[" * 200_000),
    "load:a-save-of-nonsense": ("POST", "/api/load", JSON, b'{"save": {"format": 3, "snapshot": 7}}'),
    "game:answer-1e5-characters": ("POST", "/answer", JSON, json.dumps({"as": "great-cthulhu", "answer": "x" * 100_000}).encode()),
    "game:answer-escape-sequences": ("POST", "/answer", JSON, json.dumps({"as": "great-cthulhu", "answer": "\x1b[2J\x1b]0;pwned\x07"}).encode()),
    "game:answer-as-another-seat": ("POST", "/answer", JSON, json.dumps({"as": "black-goat", "answer": "pass"}).encode()),
    "game:answer-a-list": ("POST", "/answer", JSON, b'{"as": "great-cthulhu", "answer": ["pass"]}'),
    "game:undo-to-event-1e400": ("POST", "/undo", JSON, b'{"to_event": 1e400}'),
    "game:undo-n-10^30": ("POST", "/undo", JSON, b'{"n": 1000000000000000000000000000000}'),
    "game:undo-n-negative": ("POST", "/undo", JSON, b'{"n": -3}'),
    "game:why-a-number": ("POST", "/why", JSON, b'{"answer": 12}'),
    "new-game:layout-a-list": ("POST", "/api/games", JSON, _spec(layout=["earth-3w3e"])),
    "new-game:layout-for-5": ("POST", "/api/games", JSON, _spec(layout="earth-5w5e")),
    "new-game:first-a-number": ("POST", "/api/games", JSON, _spec(first=1e300)),
    "new-game:first-not-playing": ("POST", "/api/games", JSON, _spec(first="yellow-sign")),
    "new-game:seating-1e5-characters": ("POST", "/api/games", JSON, _spec(seating="r" * 100_000)),
    "new-game:independents-a-string": ("POST", "/api/games", JSON, _spec(independents="azathoth")),
    "new-game:seats-a-list-of-numbers": ("POST", "/api/games", JSON, _spec(seats=[1, 2, 3])),
    "new-game:mine-row-10^30": ("POST", "/api/games", JSON, _spec(seats=["human"] * 3, mine=[10**30])),
    "new-game:factions-all-random-of-9": ("POST", "/api/games", JSON, _spec(factions=["random"] * 9)),
    "game:auto-not-a-bool": ("POST", "/auto", JSON, b'{"as": "great-cthulhu", "end_turn": "yes"}'),
    "game:auto-for-another-seat": ("POST", "/auto", JSON, b'{"as": "crawling-chaos", "one_option": false}'),
    "game:wrong-key": ("GET", "", {"x-necro-key": "not-a-key"}, b""),
    "game:no-key-save": ("GET", "/save", {"x-necro-key": ""}, b""),
    "game:log-lines-before-1e400": ("GET", "/lines?before=1e400", {}, b""),
    "game:log-lines-before-negative": ("GET", "/lines?before=-3", {}, b""),
    "game:log-lines-before-missing": ("GET", "/lines", {}, b""),
    "game:log-lines-no-key": ("GET", "/lines?before=5", {"x-necro-key": ""}, b""),
    "replay:log-lines-of-no-replay": ("GET", "/api/replays/nope/lines?before=5", {}, b""),
}


def _request(name: str, req: Request) -> Callable[[Path], Outcome]:
    def run(tmp: Path) -> Outcome:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from starlette.testclient import TestClient
        from necronomicon.tools.web.app import create_app
        client = TestClient(create_app(db=tmp / "games.sqlite3"), base_url=BASE, raise_server_exceptions=False)
        made = client.post("/api/games", content=_spec(seats={"great-cthulhu": "human", "crawling-chaos": "human",
                                                             "black-goat": "random"}), headers=JSON).json()
        gid, key = made["id"], made["links"]["seats"]["great-cthulhu"]
        page = f"/api/games/{gid}"
        before = client.get(f"{page}/save", headers={"x-necro-key": made["links"]["mine"]}).text
        method, path, headers, body = req
        url = path if path.startswith("/api/") else page + path
        hdrs = {"x-necro-key": key, **headers}
        r = client.request(method, url, content=body or None, headers=hdrs)
        after = client.get(f"{page}/save", headers={"x-necro-key": made["links"]["mine"]}).text
        try:
            message = r.json().get("message", "")
        except ValueError:
            message = ""
        one_line = isinstance(message, str) and message != "" and "\n" not in message
        clean = 400 <= r.status_code < 500 and one_line and "Traceback" not in r.text
        return Outcome(clean, f"{r.status_code} {str(message)[:200]}", half=before != after)
    return run


def cases() -> list[Case]:
    """Every hostile web request, each against a fresh board holding one game."""
    return [Case(f"web:{name}", "web", _request(name, req)) for name, req in BODIES.items()]
