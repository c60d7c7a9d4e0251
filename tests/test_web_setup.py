"""The web board's new-game choices (map layout, random factions, seating, first player,
Independents) through the same code as `necro play`, each bad value one 4xx line; and the seats'
auto-answer settings: answered by the server through the game's log, kept with the game, and gone
back past by undo."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
from tests.web_client import BASE, THREE, TestClient  # noqa: E402  (skips the module without the web extra)

from necronomicon.interpreter.content import load_content  # noqa: E402
from necronomicon.interpreter.engine.game import Game  # noqa: E402
from necronomicon.tools.auto_answers import AutoAnswers, auto_answer  # noqa: E402
from necronomicon.tools.game_setup import Setup, make_game  # noqa: E402
from necronomicon.tools.web.app import create_app  # noqa: E402



@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url=BASE)


def make(client: TestClient, **spec: Any) -> tuple[str, str]:
    r = client.post("/api/games", json={"ruleset": "multiplayer", "factions": THREE, **spec})
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["links"]["mine"]


def view(client: TestClient, gid: str, key: str, who: str = "") -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}?as={who}", headers={"x-necro-key": key})
    assert r.status_code == 200, r.text
    return r.json()


def save(client: TestClient, gid: str, key: str) -> dict[str, Any]:
    return client.get(f"/api/games/{gid}/save", headers={"x-necro-key": key}).json()


def test_setup_offers_the_layouts_for_each_player_count_and_the_other_choices(client: TestClient) -> None:
    s = client.get("/api/setup").json()
    multi = next(r for r in s["rulesets"] if r["id"] == "multiplayer")
    assert [lay["id"] for lay in multi["layouts"]["4"]][:1] == ["earth-3w5e"]
    assert "earth-5w3e" in [lay["id"] for lay in multi["layouts"]["4"]]
    assert [lay["id"] for lay in multi["layouts"]["5"]] == ["earth-5w5e"]
    assert multi["layouts"]["4"][0]["name"].startswith("Earth")    # a name people read
    assert s["seatings"] == ["as-given", "random"] and s["random"] == "random"
    firsts = {f["id"]: f["first"] for f in s["factions"]}
    assert firsts["great-cthulhu"] == "always" and firsts["wind-rider"] == "never" and firsts["black-goat"] == "may"


def test_the_form_and_necro_play_make_the_same_game_from_the_same_choices(client: TestClient) -> None:
    spec = {"factions": ["random", "black-goat", "random", "random"], "seed": 11, "seating": "random",
            "layout": "earth-5w3e", "first": "random", "seats": ["heuristic", "human", "heuristic", "random"]}
    gid, key = make(client, **spec)
    served = save(client, gid, key)
    content = load_content([]).require_ok()
    g = make_game(content, Setup("multiplayer", tuple(spec["factions"]), 11, "earth-5w3e", "random", "random"))
    assert served["params"] == g.params
    assert served["seats"]["black-goat"] == "human"          # a row's seat follows its faction when shuffled
    assert sorted(served["seats"].values()) == ["heuristic", "heuristic", "human", "random"]


@pytest.mark.parametrize("spec, says", [
    ({"layout": "earth-5w5e"}, "layout: 'earth-5w5e' is not offered for 3 players"),
    ({"layout": 7}, "layout must be a string"),
    ({"seating": "sideways"}, "seating: 'sideways'; one of: as-given, random"),
    ({"first": "sleeper"}, "first: 'sleeper' is not one of the chosen factions"),
    ({"first": "crawling-chaos"}, "Great Cthulhu always goes first"),
    ({"factions": ["great-cthulhu", "nobody", "random"]}, "factions: no such name 'nobody'"),
    ({"factions": ["random"] * 9}, "factions holds 9 entries; at most 8"),
    ({"independents": ["nobody"]}, "independents: no such name 'nobody'"),
    ({"seats": ["human", "human"]}, "seats: 2 given for 3 factions"),
    ({"seats": ["human", "human", "human"], "mine": [5]}, "mine must be between 0 and 2"),
    ({"ruleset": "chess"}, "ruleset: no such ruleset 'chess'"),
])
def test_a_bad_setup_value_is_one_4xx_line_and_makes_no_game(client: TestClient, spec: dict[str, Any],
                                                             says: str) -> None:
    games = client.app.games   # type: ignore[attr-defined]
    held = len(games._live)
    r = client.post("/api/games", json={"ruleset": "multiplayer", "factions": THREE, **spec})
    assert 400 <= r.status_code < 500 and says in r.json()["message"], r.text
    assert "\n" not in r.json()["message"] and len(games._live) == held


def _people_answer_first_options(client: TestClient, gid: str, key: str, n: int) -> list[dict[str, Any]]:
    """Answer the pending decision with its first option `n` times; the decisions seen."""
    seen = []
    for _ in range(n):
        b = view(client, gid, key)
        p = b["pending"]
        if p is None:
            break
        seen.append(p)
        r = client.post(f"/api/games/{gid}/answer", json={"as": p["player"], "answer": p["groups"][0]["answer"]},
                        headers={"x-necro-key": key})
        assert r.status_code == 200, r.text
    return seen


def test_the_server_answers_a_seats_one_option_decisions_through_the_log(client: TestClient) -> None:
    gid, key = make(client, seats={f: "human" for f in THREE}, seed=3)
    seen = _people_answer_first_options(client, gid, key, 60)
    assert seen and all(len(p["groups"]) > 1 for p in seen)          # a person never saw a one-button decision
    played = save(client, gid, key)
    content = load_content([]).require_ok()
    g = Game(content, "multiplayer", THREE, 3)
    auto = 0
    for c in played["choices"]:                                        # every answer is in the game's record
        d = g.current()
        auto += auto_answer(g, d, AutoAnswers()) == c                  # type: ignore[arg-type]
        g.apply(c)
    assert auto > 0 and len(played["choices"]) == len(seen) + auto


def test_auto_end_turn_is_a_seat_setting_kept_with_the_game(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    client = TestClient(create_app(db=db), base_url=BASE)
    gid, key = make(client, seats=["human", "heuristic", "heuristic"], seed=5, mine=[0])
    assert view(client, gid, key)["auto"] == {"one_option": True, "end_turn": False}
    r = client.post(f"/api/games/{gid}/auto", json={"as": "great-cthulhu", "end_turn": True}, headers={"x-necro-key": key})
    assert r.status_code == 200 and r.json()["auto"] == {"one_option": True, "end_turn": True}
    for bad, says in (({"as": "great-cthulhu", "end_turn": "yes"}, "end_turn must be true or false"),
                      ({"as": "black-goat", "end_turn": True}, "does not play black-goat")):
        r = client.post(f"/api/games/{gid}/auto", json=bad, headers={"x-necro-key": key})
        assert r.status_code == 400 and says in r.json()["message"]
    ended = 0
    for _ in range(200):
        b = view(client, gid, key, "great-cthulhu")
        if b["pending"] is None or b["round"] > 1:
            break
        if b["bot_to_move"]:
            client.post(f"/api/games/{gid}/bot", headers={"x-necro-key": key}).raise_for_status()
            continue
        opts = b["pending"]["options"]
        assert not ("end-turn" in opts and all(o.startswith(("control-gate", "abandon-gate", "end-turn", "reveal"))
                                               for o in opts)), opts   # the server ended such turns
        client.post(f"/api/games/{gid}/answer", json={"as": "great-cthulhu", "answer": b["pending"]["groups"][0]["answer"]},
                    headers={"x-necro-key": key}).raise_for_status()
    choices = save(client, gid, key)["choices"]
    ended = choices.count("end-turn")
    assert ended > 0
    again = TestClient(create_app(db=db), base_url=BASE)            # a restart keeps the setting
    assert view(again, gid, key)["auto"] == {"one_option": True, "end_turn": True}


def test_undo_goes_back_past_the_answers_a_setting_gave(client: TestClient) -> None:
    gid, key = make(client, seats={f: "human" for f in THREE}, seed=3)
    history = []
    for _ in range(40):
        b = view(client, gid, key)
        history.append(b["steps"])
        p = b["pending"]
        client.post(f"/api/games/{gid}/answer", json={"as": p["player"], "answer": p["groups"][0]["answer"]},
                    headers={"x-necro-key": key}).raise_for_status()
        if view(client, gid, key)["steps"] > b["steps"] + 1:   # the answer was followed by answers given for a seat
            break
    else:
        pytest.fail("no answer given by a seat's setting in 40 decisions")
    r = client.post(f"/api/games/{gid}/undo", json={}, headers={"x-necro-key": key}).json()
    assert r["steps"] == history[-1] and r["undone"] >= 2   # back to the person's own last decision
