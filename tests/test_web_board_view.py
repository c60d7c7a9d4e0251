"""The board's battle view, unit markers, whole log and Load (necro serve), without a browser."""
from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from interpreter.engine.game import Game  # noqa: E402
from tools.web.app import create_app  # noqa: E402

THREE = ["great-cthulhu", "crawling-chaos", "black-goat"]
BASE = "http://127.0.0.1:8765"


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
