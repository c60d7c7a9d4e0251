"""The web board's JSON API (necro serve) over the one Game API, without a browser."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
from tests.web_client import BASE, THREE, TestClient  # noqa: E402  (skips the module without the web extra)

from necronomicon.interpreter.content import load_content  # noqa: E402
from necronomicon.interpreter.bots import make_agent  # noqa: E402
from necronomicon.interpreter.engine.game import Game  # noqa: E402
from necronomicon.interpreter.engine.seat import hand_seats  # noqa: E402
from necronomicon.tools.web.app import create_app  # noqa: E402
from necronomicon.tools.web.options import grouped  # noqa: E402

ROOT = Path(__file__).parent.parent


KEYS: dict[str, str] = {}   # each game's key holding every person's seat
SPECTATORS: dict[str, str] = {}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url=BASE)


def new_game(client: TestClient, seats: dict[str, str], seed: int = 1) -> str:
    r = client.post("/api/games", json={"ruleset": "multiplayer", "factions": THREE, "seats": seats, "seed": seed})
    assert r.status_code == 200, r.text
    KEYS[r.json()["id"]] = r.json()["links"]["mine"]
    SPECTATORS[r.json()["id"]] = r.json()["links"]["spectator"]
    return r.json()["id"]


def key(gid: str) -> dict[str, str]:
    return {"x-necro-key": KEYS[gid]}


def board(client: TestClient, gid: str, viewer: str = "") -> dict[str, Any]:
    """The board as `viewer` sees it ('' : the public view, through the game's spectator link)."""
    if viewer:
        r = client.get(f"/api/games/{gid}?as={viewer}", headers=key(gid))
    else:
        r = client.get(f"/api/games/{gid}", headers={"x-necro-key": SPECTATORS[gid]})
    assert r.status_code == 200, r.text
    return r.json()


def test_setup_lists_rulesets_factions_with_colours_seats_and_expansions(client: TestClient) -> None:
    s = client.get("/api/setup").json()
    assert {"multiplayer", "duel", "two-player"} <= {r["id"] for r in s["rulesets"]}
    gc = next(f for f in s["factions"] if f["id"] == "great-cthulhu")
    assert gc["colour"] == "#2e8b57"
    assert s["seats"][0] == "human" and "heuristic" in s["seats"]
    assert any(x.startswith("mcts:") for x in s["seats"])     # the search bot, with a budget
    assert "azathoth" in s["expansions"]
    assert client.get("/api/setup?expansions=").status_code == 200          # every box unticked: the base game
    with_az = client.get("/api/setup?expansions=azathoth").json()
    assert with_az["factions"] == s["factions"]
    bad = client.get("/api/setup?expansions=nope")
    assert bad.status_code == 400 and "no expansion named 'nope'" in bad.json()["message"]


def test_a_search_bot_seat_plays_from_its_view(client: TestClient) -> None:
    gid = new_game(client, {"great-cthulhu": "mcts:2:depth=4", "crawling-chaos": "heuristic", "black-goat": "human"})
    for _ in range(6):
        assert client.post(f"/api/games/{gid}/bot", headers=key(gid)).json()["moved"]
    assert board(client, gid)["seats"]["great-cthulhu"] == "mcts:2:depth=4"
    r = client.post("/api/games", json={"ruleset": "multiplayer", "factions": THREE, "seats": {"black-goat": "mcts:0s"}})
    assert r.status_code == 400 and "time budget must be above 0" in r.json()["message"]


def test_the_board_draws_earth_from_its_positions_with_wrapping_borders(client: TestClient) -> None:
    gid = new_game(client, {f: "human" for f in THREE})
    b = board(client, gid, "great-cthulhu")
    areas = {a["id"]: a for a in b["map"]["areas"]}
    assert areas["europe"]["x"] > areas["north-america"]["x"] and areas["antarctica"]["y"] > areas["europe"]["y"]
    wraps = {(x, y) for x, y, w in b["map"]["edges"] if w}
    assert ("asia", "north-pacific") in wraps and ("asia", "north-atlantic") not in wraps
    assert b["ritual"]["track"] == [5, 6, 7, 8, 9, 10]
    assert {f["id"]: f["colour"] for f in b["factions"]}["black-goat"] == "#b8322a"
    assert b["gates"]["south-pacific"]["owner"] == "great-cthulhu"
    assert sum(1 for u in b["units"] if u["owner"] == "great-cthulhu" and u["loc"] == "south-pacific") == 6


def test_an_illegal_answer_is_refused_with_the_engines_reason_and_nothing_changes(client: TestClient) -> None:
    gid = new_game(client, {f: "human" for f in THREE})
    before = board(client, gid, "great-cthulhu")
    r = client.post(f"/api/games/{gid}/answer", json={"as": "great-cthulhu", "answer": "sideways"}, headers=key(gid))
    assert r.status_code == 400 and r.json()["error"] == "not-an-option" and "legal: clockwise" in r.json()["message"]
    assert "for Great Cthulhu" in r.json()["message"]   # in the content's names (tests/test_words_for_people.py)
    r = client.post(f"/api/games/{gid}/answer", json={"as": "black-goat", "answer": "clockwise"}, headers=key(gid))
    assert r.status_code == 400 and r.json()["error"] == "not-your-turn"
    assert r.json()["message"] == "Great Cthulhu is choosing now, not Black Goat"
    assert client.post(f"/api/games/{gid}/why", json={"answer": "north-america"}, headers=key(gid)).json()["legal"] is False
    assert board(client, gid, "great-cthulhu") == before


def test_the_same_seed_and_answers_give_the_same_game_as_the_api_and_necro_play(client: TestClient) -> None:
    gid = new_game(client, {f: "heuristic" for f in THREE}, seed=4)
    for _ in range(150):
        assert client.post(f"/api/games/{gid}/bot", headers=key(gid)).json()["moved"]
    content = load_content().require_ok()
    g = Game(content, "multiplayer", THREE, 4)
    agents = {f: make_agent("heuristic", 4 * 31 + i) for i, f in enumerate(THREE)}   # as necro play seeds them
    hand_seats(g, agents)
    for _ in range(150):
        d = g.current()
        g.apply(agents[d.player].choose(d.player, d.options, d))  # type: ignore[union-attr,attr-defined]
    save = client.get(f"/api/games/{gid}/save", headers=key(gid)).json()
    assert save["choices"] == g.choices and save["seats"] == {f: "heuristic" for f in THREE}


def test_undo_takes_back_the_persons_answer_and_the_bots_after_it(client: TestClient) -> None:
    gid = new_game(client, {"great-cthulhu": "human", "crawling-chaos": "heuristic", "black-goat": "heuristic"})
    first = board(client, gid, "great-cthulhu")
    client.post(f"/api/games/{gid}/answer", json={"as": "great-cthulhu", "answer": "clockwise"}, headers=key(gid)).raise_for_status()
    while board(client, gid, "great-cthulhu")["bot_to_move"]:
        client.post(f"/api/games/{gid}/bot", headers=key(gid)).raise_for_status()
    assert board(client, gid)["steps"] >= 1
    r = client.post(f"/api/games/{gid}/undo", json={}, headers=key(gid)).json()
    assert r["steps"] == 0
    again = board(client, gid, "great-cthulhu")
    assert again["pending"] == first["pending"] and again["units"] == first["units"]
    assert client.post(f"/api/games/{gid}/undo", json={}, headers=key(gid)).json()["error"] == "nothing-to-undo"


def test_a_click_on_a_log_line_goes_back_to_just_after_it(client: TestClient) -> None:
    gid = new_game(client, {f: "heuristic" for f in THREE}, seed=6)
    for _ in range(60):
        client.post(f"/api/games/{gid}/bot", headers=key(gid)).raise_for_status()
    b = board(client, gid)
    line = next(l for l in b["log"] if l["type"] == "phase" and "action" in l["text"])
    r = client.post(f"/api/games/{gid}/undo", json={"to_event": line["seq"]}, headers=key(gid)).json()
    assert r["undone"] > 0
    after = board(client, gid)
    assert after["log"][-1]["seq"] == line["seq"] and after["phase"] == "action"
    assert client.post(f"/api/games/{gid}/undo", json={"to_event": "x"}, headers=key(gid)).json()["error"] == "bad-request"


def test_save_and_load_continue_the_same_game(client: TestClient) -> None:
    gid = new_game(client, {f: "heuristic" for f in THREE}, seed=2)
    for _ in range(40):
        client.post(f"/api/games/{gid}/bot", headers=key(gid)).raise_for_status()
    save = client.get(f"/api/games/{gid}/save", headers=key(gid)).json()
    r = client.post("/api/load", json={"save": save}).json()
    loaded = r["id"]
    KEYS[loaded], SPECTATORS[loaded] = r["links"]["mine"], r["links"]["spectator"]
    same = {k: v for k, v in board(client, gid).items() if k != "version"}
    assert {k: v for k, v in board(client, loaded).items() if k != "version"} == same   # the readable log too
    bad = client.post("/api/load", json={"save": {"nonsense": 1}})
    assert bad.status_code == 400 and "not a saved game" in bad.json()["message"]


def test_each_seat_sees_only_its_own_elder_sign_values(client: TestClient) -> None:
    gid = new_game(client, {f: "heuristic" for f in THREE}, seed=3)
    for _ in range(600):
        b = board(client, gid)
        if any(f["elder_signs"] for f in b["factions"]) or b["over"]:
            break
        client.post(f"/api/games/{gid}/bot", headers=key(gid)).raise_for_status()
    holder = next(f for f in board(client, gid)["factions"] if f["elder_signs"])
    other = next(p for p in THREE if p != holder["id"])
    # the same position with three people: each reads the board through their own seat's link
    save = client.get(f"/api/games/{gid}/save", headers=key(gid)).json()
    made = client.post("/api/load", json={"save": save, "seats": {f: "human" for f in THREE}}).json()
    seat_keys = made["links"]["seats"]

    def seen_by(player: str, asked: str = "") -> Any:
        return client.get(f"/api/games/{made['id']}?as={asked}", headers={"x-necro-key": seat_keys[player]})
    mine = {f["id"]: f["elder_signs"] for f in seen_by(holder["id"]).json()["factions"]}
    theirs = {f["id"]: f["elder_signs"] for f in seen_by(other).json()["factions"]}
    assert seen_by(other).json()["viewer"] == other
    assert all(isinstance(v, int) for v in mine[holder["id"]])
    assert set(theirs[holder["id"]]) == {None}
    # a seat's link reads no other seat's view
    r = seen_by(other, holder["id"])
    assert r.status_code == 403 and "does not hold the seat" in r.json()["message"]


def test_a_log_replays_step_by_step_and_by_round(client: TestClient) -> None:
    content = load_content().require_ok()
    from necronomicon.interpreter.engine.play import run_game
    g = Game(content, "multiplayer", THREE, 5)
    run_game(g, {f: make_agent("random", i) for i, f in enumerate(THREE)}, max_decisions=300)
    text = "\n".join(g.log_lines())
    r = client.post("/api/replays", content=text).json()
    assert r["total"] == len(g.choices)
    start = client.get(f"/api/replays/{r['id']}?step=0").json()
    assert start["step"] == 0 and start["round"] == 1
    end = client.get(f"/api/replays/{r['id']}?step={r['total']}").json()
    assert end["digest_ok"] is True and end["over"]
    two = client.get(f"/api/replays/{r['id']}?round=2").json()
    assert two["round"] == 2 and 0 < two["step"] < r["total"]
    seq = next(e["seq"] for e in g.log if e["type"] == "phase" and e.get("round") == 2)
    at = client.get(f"/api/replays/{r['id']}?event={seq}").json()
    assert at["log"][-1]["seq"] >= seq and at["step"] == two["step"]   # the round's first decision follows its phase line
    bad = client.post("/api/replays", content="{}\nnot json")
    assert bad.status_code == 400 and "not a game log" in bad.json()["message"]


def test_alike_options_are_grouped_and_name_their_areas() -> None:
    g = Game(load_content().require_ok(), "multiplayer", THREE, 1)
    acolytes = [u["id"] for u in g.s.units if u["owner"] == "great-cthulhu" and u["loc"] == "south-pacific"]
    ctrl = g.s.gates["south-pacific"]["controller"]
    opts = tuple(f"acolyte south-pacific->{a}#{i}" for i in acolytes for a in ("antarctica", "australia"))
    groups = grouped(opts, {"south-pacific", "antarctica", "australia"}, game=g, player="great-cthulhu", kind="move")
    # the gate's controller is not alike the other five: it keeps its own line
    assert sorted(x["count"] for x in groups) == [1, 1, 5, 5]
    five = next(x for x in groups if x["count"] == 5 and x["areas"][-1] == "antarctica")
    assert five["areas"] == ["south-pacific", "antarctica"] and ctrl not in five["units"] and len(five["units"]) == 5
    assert five["label"].startswith("acolyte south-pacific \u2192 antarctica")


def test_necro_serve_prints_its_url_and_serves_the_board(tmp_path: Path) -> None:
    import subprocess
    import sys
    import urllib.request
    proc = subprocess.Popen([sys.executable, "-m", "necronomicon.tools.cli", "serve", "--port", "0", "--db", str(tmp_path / "g.db")], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("necro serve: open http://127.0.0.1:")
        url = line.split("open ", 1)[1].split()[0]
        for _ in range(100):
            try:
                page = urllib.request.urlopen(url, timeout=5).read().decode()
                break
            except OSError:
                import time
                time.sleep(0.1)
        assert "<title>Necronomicon</title>" in page
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    bad = subprocess.run([sys.executable, "-m", "necronomicon.tools.cli", "serve", "--content-dir", str(tmp_path / "nowhere")],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "no content folder" in bad.stderr and "Traceback" not in bad.stderr


def test_an_upload_over_the_cap_is_refused_in_one_line(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from necronomicon.tools.web.guard import Door
    small = TestClient(create_app(door=Door(max_json=1000, max_upload=3000)), base_url=BASE)
    big = b'{"save": "' + b"x" * 1500 + b'"}'
    r = small.post("/api/load", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["message"] == "the request is larger than 1,000 bytes"
    r = small.post("/api/replays", content=b"{}\n" * 2000)
    assert r.status_code == 413 and "larger than 3,000 bytes" in r.json()["message"]
