"""The engine off the event loop (#31): while a search bot thinks, another game's page loads, and
Pause stops the thought (its answer dropped); each open page hears of a change as it happens."""
from __future__ import annotations

import http.client
import json
import threading
from typing import Any, Iterator

import pytest

pytest.importorskip("uvicorn")

from tests.web.harness import Server  # noqa: E402

THREE = ["great-cthulhu", "crawling-chaos", "black-goat"]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    s = Server(max_bot_seconds=30.0)
    yield s
    s.stop()


def call(server: Server, method: str, path: str, body: Any = None, key: str = "") -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    headers = {"X-Necro-Key": key} if key else {}
    if body is not None:
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    r = conn.getresponse()
    data = json.loads(r.read() or b"null")
    conn.close()
    return r.status, data


def make(server: Server, seats: dict[str, str]) -> tuple[str, str]:
    status, made = call(server, "POST", "/api/games", {"ruleset": "multiplayer", "factions": THREE, "seats": seats})
    assert status == 200, made
    return made["id"], made["links"]["mine"]


def test_a_page_loads_while_a_bot_thinks_and_pause_stops_the_thought(server: Server) -> None:
    gid, key = make(server, {"great-cthulhu": "mcts:30s", "crawling-chaos": "human", "black-goat": "human"})
    other, other_key = make(server, {f: "human" for f in THREE})
    status, first = call(server, "GET", f"/api/games/{gid}", key=key)
    assert status == 200 and first["bot_to_move"] and first["pending"]["player"] == "great-cthulhu"
    answered: dict[str, Any] = {}
    thinking = threading.Thread(target=lambda: answered.update(r=call(server, "POST", f"/api/games/{gid}/bot", key=key)))
    thinking.start()
    try:
        # the bot's request is on its 30-second thought; another game's page and board answer meanwhile
        status, page = call(server, "GET", f"/api/games/{other}", key=other_key)
        assert status == 200 and page["steps"] == 0
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        conn.request("GET", "/")
        assert conn.getresponse().status == 200
        assert thinking.is_alive() and "r" not in answered   # the page did not wait for the bot
        # Pause answers too, and the thought stops without its answer
        status, paused = call(server, "POST", f"/api/games/{gid}/pause", {"paused": True}, key=key)
        assert status == 200 and paused == {"paused": True}
    finally:
        thinking.join(timeout=60)
    assert not thinking.is_alive()
    assert answered["r"] == (200, {"moved": False, "steps": 0})
    status, after = call(server, "GET", f"/api/games/{gid}", key=key)
    assert after["steps"] == 0 and after["paused"] is True
    # while paused, no bot moves; resumed, it may
    assert call(server, "POST", f"/api/games/{gid}/bot", key=key)[1]["moved"] is False


def test_each_open_page_hears_of_a_change_as_it_happens(server: Server) -> None:
    gid, key = make(server, {f: "human" for f in THREE})
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", f"/api/games/{gid}/events?key={key}")
    stream = conn.getresponse()
    assert stream.status == 200 and stream.getheader("content-type").startswith("text/event-stream")

    def next_event() -> str:
        while True:
            line = stream.readline().decode().strip()
            if line.startswith("data: "):
                return line[6:]
    now = int(next_event())
    status, _ = call(server, "POST", f"/api/games/{gid}/answer", {"as": "great-cthulhu", "answer": "clockwise"}, key=key)
    assert status == 200
    assert int(next_event()) == now + 1
    conn.close()
    status, refused = call(server, "GET", f"/api/games/{gid}/events?key=wrong")
    assert status == 403
