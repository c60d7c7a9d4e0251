"""The web board's door (#31): foreign Hosts and cross-site writes refused, bodies bounded before
parsing, every request value checked (never a 500), a game open only to its keys, bot budgets
capped by the server, games kept in SQLite across a restart."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
from tests.web_client import BASE, THREE, TestClient  # noqa: E402  (skips the module without the web extra)

from necronomicon.tools.web.app import create_app  # noqa: E402
from necronomicon.tools.web.guard import Door, nesting  # noqa: E402
from necronomicon.tools.web.store import DAY, FINISHED_DAYS, IDLE_DAYS, GameStore  # noqa: E402

JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url=BASE)


def make(client: TestClient, seats: dict[str, str], **extra: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"ruleset": "multiplayer", "factions": THREE, "seats": seats, "seed": 1, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def as_key(k: str) -> dict[str, str]:
    return {"x-necro-key": k}


def test_a_foreign_host_is_refused_and_an_allowed_one_served(client: TestClient) -> None:
    r = client.get("/", headers={"host": "evil.example"})
    assert r.status_code == 403 and "does not answer to the name 'evil.example'" in r.json()["message"]
    assert client.get("/", headers={"host": "localhost:8765"}).status_code == 200
    lan = TestClient(create_app(door=Door({"127.0.0.1", "192.168.1.20"})), base_url="http://192.168.1.20:8765")
    assert lan.get("/").status_code == 200
    assert lan.get("/", headers={"host": "attacker.example:8765"}).status_code == 403


def test_a_write_from_another_site_is_refused(client: TestClient) -> None:
    spec = {"ruleset": "multiplayer", "factions": THREE}
    for headers in ({"origin": "http://evil.example"}, {"origin": "null"}, {"origin": "http://127.0.0.1:9999"},
                    {"sec-fetch-site": "cross-site"}):
        r = client.post("/api/games", json=spec, headers=headers)
        assert r.status_code == 403 and "another site" in r.json()["message"], headers
    assert client.post("/api/games", json=spec, headers={"origin": BASE}).status_code == 200
    # a form or text/plain body (which a foreign page could send without asking) is not read as JSON
    r = client.post("/api/games", content=json.dumps(spec), headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["message"]


@pytest.mark.parametrize("route", ["/api/games", "/api/load"])
def test_a_deeply_nested_body_is_refused_before_parsing(client: TestClient, route: str) -> None:
    r = client.post(route, content=b"[" * 200_000, headers=JSON)
    assert r.status_code == 400 and "nests deeper than 64" in r.json()["message"]
    assert nesting(b'{"a": "[[[[[[[[[[[[", "b": [[1]]}') == 3     # brackets inside strings do not count


def test_a_declared_oversized_body_is_refused_unread(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{}", headers={**JSON, "content-length": str(10**12)})
    assert r.status_code == 413


@pytest.mark.parametrize("body, words", [
    (b'{"ruleset": "multiplayer", "factions": [], "seed": 1e400}', "the seed must be a whole number, not inf"),
    (b'{"ruleset": "multiplayer", "seed": 1000000000000000000000000000000}', "the seed must be between 0 and"),
    (b'{"ruleset": "multiplayer", "seed": true}', "the seed must be a whole number"),
    (b'{"ruleset": "multiplayer", "expansions": "azathoth"}', "expansions must be a list of names, not 'azathoth'"),
    (b'{"ruleset": "multiplayer", "expansions": ["nope"]}', "no such name 'nope'"),
    (b'{"ruleset": "multiplayer", "factions": ["great-cthulhu", 7]}', "factions[1] must be a string"),
    (b'{"ruleset": "multiplayer", "factions": ["great-cthulhu", "crawling-chaos", "black-goat"], '
     b'"seats": {"nobody": "human"}}', "'nobody' is not a player of this game"),
    (b'[1, 2]', "must be a JSON object"),
    (b'{"ruleset": "multiplayer", "expansions": ' + json.dumps(["azathoth"] * 100).encode() + b'}', "at most 64"),
])
def test_every_value_of_a_new_game_is_checked(client: TestClient, body: bytes, words: str) -> None:
    r = client.post("/api/games", content=body, headers=JSON)
    assert r.status_code == 400 and words in r.json()["message"], r.text


def test_repeated_expansions_are_one_content_set(client: TestClient) -> None:
    a = make(client, {f: "human" for f in THREE}, expansions=["azathoth"] * 20)
    b = make(client, {f: "human" for f in THREE}, expansions=["azathoth"])
    games = client.app.games  # type: ignore[attr-defined]
    assert games.get(a["id"]).content is games.get(b["id"]).content


def test_undo_values_are_checked(client: TestClient) -> None:
    made = make(client, {f: "human" for f in THREE})
    for body, words in ((b'{"to_event": 1e400}', "to_event must be a whole number, not inf"),
                        (b'{"n": -3}', "n must be between 1"), (b'{"n": "3"}', "can be undone")):
        r = client.post(f"/api/games/{made['id']}/undo", content=body, headers={**JSON, **as_key(made["links"]["mine"])})
        assert r.status_code == 400 and words in r.json()["message"], r.text


def test_bot_budgets_are_capped_by_the_server() -> None:
    capped = TestClient(create_app(max_bot_seconds=1.0), base_url=BASE)
    r = capped.post("/api/games", json={"ruleset": "multiplayer", "factions": THREE, "seats": {"black-goat": "mcts:2s"}})
    assert r.status_code == 400 and "at most 1s a decision, not 2s" in r.json()["message"]
    r = capped.post("/api/games", json={"ruleset": "multiplayer", "factions": THREE, "seats": {"black-goat": "mcts:100000"}})
    assert r.status_code == 400 and "at most 200 playouts a decision" in r.json()["message"]
    assert make(capped, {"black-goat": "mcts:0.5s"})["id"]


def test_a_game_opens_only_to_its_keys(client: TestClient) -> None:
    made = make(client, {"great-cthulhu": "human", "crawling-chaos": "human", "black-goat": "heuristic"},
                mine=["great-cthulhu"])
    gid, links = made["id"], made["links"]
    assert len(gid) >= 16 and all(len(k) >= 24 for k in [links["mine"], links["spectator"], *links["seats"].values()])
    assert set(links["seats"]) == {"great-cthulhu", "crawling-chaos"}
    assert make(client, {})["id"] != gid
    page = f"/api/games/{gid}"
    assert client.get(page).status_code == 403
    assert client.get(page, headers=as_key("x" * 24)).status_code == 403
    other = gid[:-1] + ("A" if gid[-1] != "A" else "B")
    r = client.get(f"/api/games/{other}", headers=as_key(links["mine"]))
    assert r.status_code == 404 and r.json()["message"] == "no such game on this server (it may have expired)"
    cc = as_key(links["seats"]["crawling-chaos"])
    assert client.get(page, headers=cc).json()["viewer"] == "crawling-chaos"
    # a seat's key plays that seat only
    r = client.post(f"{page}/answer", json={"as": "great-cthulhu", "answer": "clockwise"}, headers=cc)
    assert r.status_code == 400 and r.json()["error"] == "not-your-seat"
    assert client.post(f"{page}/answer", json={"as": "great-cthulhu", "answer": "clockwise"},
                       headers=as_key(links["mine"])).status_code == 200
    # a friend's move is not the other's to take back
    r = client.post(f"{page}/undo", json={}, headers=cc)
    assert r.status_code == 400 and r.json()["error"] == "not-yours-to-undo"
    # a spectator sees the public view and may not act
    spec = as_key(links["spectator"])
    seen = client.get(page, headers=spec).json()
    assert seen["viewer"] is None and seen["spectator"] and not any(f["own"] for f in seen["factions"])
    for route in ("answer", "why", "bot", "undo", "pause"):
        r = client.post(f"{page}/{route}", json={"as": "great-cthulhu", "answer": "pass"}, headers=spec)
        assert r.status_code == 403 and "spectator" in r.json()["message"], route
    # until the game is over, the save and the log (every hand) are for a key holding every person's seat
    assert client.get(f"{page}/save", headers=as_key(links["mine"])).status_code == 403
    assert client.get(f"{page}/log", headers=spec).status_code == 403


def test_games_outlive_the_server(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first = TestClient(create_app(db=db), base_url=BASE)
    made = make(first, {"great-cthulhu": "human", "crawling-chaos": "heuristic", "black-goat": "heuristic"})
    gid, k = made["id"], as_key(made["links"]["mine"])
    assert first.post(f"/api/games/{gid}/answer", json={"as": "great-cthulhu", "answer": "clockwise"}, headers=k).status_code == 200
    before = first.get(f"/api/games/{gid}", headers=k).json()
    first.app.games.store.close()  # type: ignore[attr-defined]
    again = TestClient(create_app(db=db), base_url=BASE)
    after = again.get(f"/api/games/{gid}", headers=k).json()
    assert after["steps"] == before["steps"] == 1 and after["units"] == before["units"] and after["log"] == before["log"]
    assert again.get(f"/api/games/{gid}", headers=as_key("not-the-key-" * 2)).status_code == 403
    assert again.post(f"/api/games/{gid}/bot", headers=k).json()["steps"] >= 1


def test_old_finished_games_expire_by_the_stated_rule(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    now = 1_000_000_000.0
    store.put("done-old", {}, over=True, now=now - (FINISHED_DAYS + 1) * DAY)
    store.put("done-new", {}, over=True, now=now - (FINISHED_DAYS - 1) * DAY)
    store.put("open-old", {}, over=False, now=now - (FINISHED_DAYS + 1) * DAY)
    store.put("open-idle", {}, over=False, now=now - (IDLE_DAYS + 1) * DAY)
    assert store.expire(now) == 2
    assert [g for g in ("done-old", "done-new", "open-old", "open-idle") if store.get(g) is not None] == ["done-new", "open-old"]


def test_serving_the_network_prints_the_links_and_a_warning(tmp_path: Path) -> None:
    import subprocess
    import sys
    root = Path(__file__).parent.parent
    proc = subprocess.Popen([sys.executable, "-m", "necronomicon.tools.cli", "serve", "--host", "0.0.0.0", "--port", "0",
                             "--db", str(tmp_path / "g.db"), "--allow-host", "board.lan"], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        while not any("board.lan" in ln for ln in lines) and len(lines) < 20:
            lines.append(proc.stdout.readline())  # type: ignore[union-attr]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    text = "".join(lines)
    assert "WARNING: listening on every network address" in text and "friends open http://board.lan:" in text, text
    assert f"games are kept in {tmp_path / 'g.db'}" in text
    bad = subprocess.run([sys.executable, "-m", "necronomicon.tools.cli", "serve", "--max-bot-seconds", "1e9", "--db", str(tmp_path / "x.db")],
                         cwd=root, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "--max-bot-seconds must be above 0 and at most 3600" in bad.stderr
    assert "Traceback" not in bad.stderr
