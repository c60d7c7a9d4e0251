"""The board's battle view, unit markers, whole log and Load (necro serve), without a browser."""
from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
from tests.web_client import BASE, THREE, TestClient  # noqa: E402  (skips the module without the web extra)

from necronomicon.interpreter.engine.game import Game  # noqa: E402
from necronomicon.tools.web.app import create_app  # noqa: E402
from necronomicon.interpreter.engine import battle_queries, core  # noqa: E402



@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url=BASE)


def bots_game(client: TestClient, seed: int, answers: int) -> tuple[str, str]:
    """A game of three heuristic bots, `answers` decisions in: its id and its every-seat key."""
    r = client.post("/api/games", json={"ruleset": "multiplayer", "factions": THREE, "seed": seed,
                                        "seats": {f: "heuristic" for f in THREE}})
    assert r.status_code == 200, r.text
    gid, key = r.json()["id"], r.json()["links"]["mine"]
    for _ in range(answers):
        client.post(f"/api/games/{gid}/bot", headers={"x-necro-key": key}).raise_for_status()
    return gid, key


def test_loading_a_save_replays_its_answers_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, key = bots_game(client, 2, 60)
    save = client.get(f"/api/games/{gid}/save", headers={"x-necro-key": key}).json()
    applied = []
    real = Game.apply

    def counted(self: Game, answer: Any) -> Any:
        applied.append(answer)
        return real(self, answer)
    monkeypatch.setattr(Game, "apply", counted)
    r = client.post("/api/load", json={"save": save})
    assert r.status_code == 200, r.text
    assert len(applied) == len(save["choices"]) == 60     # the check's replay, and no second one
    loaded = client.get(f"/api/games/{r.json()['id']}", headers={"x-necro-key": r.json()["links"]["mine"]}).json()
    first = client.get(f"/api/games/{gid}", headers={"x-necro-key": key}).json()
    assert loaded["log"] == first["log"] and loaded["log"][0]["type"] != "restored"   # the readable log is whole


def test_a_battle_is_shown_from_the_view_with_faces_and_what_is_left_to_assign(client: TestClient) -> None:
    from necronomicon.interpreter.engine.battle import die_face
    gid, key = bots_game(client, 1, 0)
    s = client.app.games.get(gid)   # type: ignore[attr-defined]
    seen = []
    while s.game.current() is not None and len(s.game.choices) < 400 and len(seen) < 3:
        with s.lock:
            s.bot_step()
        record = s.game.s.battle
        if record is None or not record["rolled"]:
            continue
        shown = client.get(f"/api/games/{gid}", headers={"x-necro-key": key}).json()["battle"]
        seen.append(shown)
        for side in shown["sides"]:
            p = side["player"]
            rolled = record["rolled"][p]
            assert [f for f in side["faces"]] == [die_face(x) for x in rolled["rolls"]]
            assert (side["kills"], side["pains"]) == (side["faces"].count("kill"), side["faces"].count("pain"))
            ids = {u["id"] for u in battle_queries.participants(s.game.rules, p)}
            assert {u["id"] for u in side["units"]} == ids and all("#" not in u["name"] for u in side["units"])
            assert side["combat"] == sum(core.combat_of(s.game.rules, u) for u in battle_queries.participants(s.game.rules, p))
            left = {r["result"]: r["count"] for r in side["left"]}
            assert sum(left.values()) == len(record["pending"][p])
        assert shown["area_name"] != shown["area"] and shown["asking"]["question"]
    assert seen, "the bots' game of seed 1 fights a battle in its first 400 answers"
    assert [die_face(x) for x in range(1, 7)] == ["miss", "miss", "miss", "pain", "pain", "kill"]


def test_the_view_of_a_battle_shows_no_hidden_value() -> None:
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.engine.view import HIDDEN
    g = Game(load_content().require_ok(), "multiplayer", THREE, 1)
    from necronomicon.interpreter.bots import make_agent
    bots = {p: make_agent("heuristic", 31 + i) for i, p in enumerate(THREE)}
    while g.s.battle is None and len(g.choices) < 400:
        d = g.current()
        g.apply(bots[d.player].choose(d.player, d.options, d))
    for viewer in [None, *THREE]:
        v = g.view(viewer)
        assert v["battle"]["area"] == g.s.battle["area"]
        assert v["state"]["rng"] is HIDDEN and v["state"]["flow"] is HIDDEN
        assert all(x is HIDDEN for p, signs in v["state"]["elder_signs"].items() if p != viewer for x in signs)


def test_the_log_comes_in_pages_back_to_its_first_line(client: TestClient) -> None:
    gid, key = bots_game(client, 7, 300)
    session = client.app.games.get(gid)   # type: ignore[attr-defined]
    board = client.get(f"/api/games/{gid}", headers={"x-necro-key": key}).json()
    assert board["log_more"] and len(board["log"]) == 400
    lines, more = list(board["log"]), board["log_more"]
    while more:
        r = client.get(f"/api/games/{gid}/lines?before={lines[0]['seq']}", headers={"x-necro-key": key})
        assert r.status_code == 200, r.text
        page = r.json()
        assert page["lines"] and page["lines"][-1]["seq"] < lines[0]["seq"]
        lines, more = page["lines"] + lines, page["more"]
    from necronomicon.tools.render import event_text
    from necronomicon.tools.words import words_for
    words = words_for(session.game.content)
    whole = [e["seq"] for e in session.game.log if event_text(e, words)]
    assert [l["seq"] for l in lines] == whole and lines[0]["text"].startswith("game: ")
    assert client.get(f"/api/games/{gid}/lines?before=5").status_code == 403       # a game's lines need its key
    bad = client.get(f"/api/games/{gid}/lines?before=x", headers={"x-necro-key": key})
    assert bad.status_code == 400 and "before" in bad.json()["message"]


def test_a_prompt_about_one_unit_names_it_first_in_words() -> None:
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.engine.decisions import Decision
    from necronomicon.tools.words import Words, words_for
    words = words_for(load_content().require_ok().model)
    retreat = Decision("great-cthulhu", "area", ("south-pacific",), "retreat deep-one south-asia#9 to")
    assert words.question(retreat) == "Deep One from South Asia: retreat to …"
    assert words.prompt(retreat) == "Great Cthulhu: Deep One from South Asia: retreat to …"
    gated = Decision("great-cthulhu", "area", ("south-pacific",), "retreat acolyte south-asia (gate)#4 to")
    assert words.question(gated) == "Acolyte from South Asia: retreat to …"
    assert Words.ids().question(retreat) == "retreat deep-one south-asia#9 to"      # --ids keeps the engine's text
    assign = Decision("great-cthulhu", "unit", ("deep-one south-asia#9",), "assign a kill to one of great-cthulhu's units")
    assert words.question(assign) == "assign a kill to one of Great Cthulhu's units"
