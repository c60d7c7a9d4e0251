"""A loaded save is a position the rules reach (issue 30, "Forged saves").

Forged saves are generated from real saves of seeded games (tests/forged_saves.py): the edits the
issue found loading and playing are refused in one line naming the JSON path; a family of random
well-formed mutations is each refused in one line or loads as exactly the position its own
answers reach, offering a fresh game's options; an engine failure on an answer (an AssertionError
on a position set up by hand) leaves the game as it was; `necro play --resume` and the web
board's Load refuse a forged save by the same check.
"""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from necronomicon.interpreter.engine.decisions import GameError
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.reachable import first_difference
from necronomicon.interpreter.engine.savefile import SaveError
from tests import forged_saves as F
from tests.hostile_corpus import run_cli


@pytest.mark.parametrize("name", sorted(F.FORGERIES))
def test_each_forgery_the_issue_found_is_refused_naming_its_path(name: str) -> None:
    data = F.forged(name)
    before = json.dumps(data)
    with pytest.raises(SaveError) as err:
        Game.from_json(F.content(), data)
    msg = str(err.value)
    path = F.FORGERIES[name][2]
    assert msg.startswith(f"save: {path}") and "\n" not in msg, msg
    assert json.dumps(data) == before


def test_the_unedited_saves_of_those_positions_load_as_they_were() -> None:
    for name, g in F.positions().items():
        loaded = Game.from_json(F.content(), F.real_save(name))
        assert loaded.to_json() == g.to_json() and loaded.legal_actions() == g.legal_actions(), name


def test_a_save_of_a_finished_game_and_of_a_resumed_game_loads() -> None:
    g = Game.from_json(F.content(), F.real_save("duel"))   # resumed, played to the end, saved again
    while not g.is_over():
        g.apply(g.legal_actions()[len(g.choices) % len(g.legal_actions())])
    again = Game.from_json(F.content(), json.loads(json.dumps(g.to_json())))
    assert again.is_over() and again.to_json() == g.to_json()


@pytest.mark.parametrize("chunk", range(8))
def test_random_mutations_of_real_saves_are_refused_or_reach_their_position(chunk: int) -> None:
    seen: dict[str, int] = {}
    for seed in range(chunk * 20, chunk * 20 + 20):
        kind, msg = F.judge(F.mutation(seed))
        assert kind in ("refused", "reached"), f"mutation {seed}: {kind}: {msg}"
        seen[kind] = seen.get(kind, 0) + 1
    assert seen.get("refused", 0) >= 10   # the family is made of real forgeries, not no-ops


def test_an_edited_answer_is_refused_naming_it() -> None:
    data = F.real_save("duel")
    data["choices"][5] = "summon dragon atlantis"
    with pytest.raises(SaveError, match=r"^save: \$\.choices\[5\]: \"summon dragon atlantis\" is not an option"):
        Game.from_json(F.content(), data)
    data = F.real_save("duel")
    data["choices"] = data["choices"][:-1]         # one answer fewer: the snapshot is a step ahead
    with pytest.raises(SaveError, match=r"^save: \$\.snapshot\."):
        Game.from_json(F.content(), data)
    data = F.real_save("duel")
    i = next(i for i, c in enumerate(data["choices"]) if "#" in c)
    data["choices"][i] = data["choices"][i].split("#")[0]   # an abbreviation apply() accepts, not the label
    with pytest.raises(SaveError, match=rf"^save: \$\.choices\[{i}\]: .* is not the full label"):
        Game.from_json(F.content(), data)


def test_a_failing_rule_on_a_position_set_up_by_hand_changes_nothing() -> None:
    data = F.forged("battle-record-removed-during-a-retreat")   # raised a raw AssertionError and moved the unit
    g = Game.from_json(F.content(), data, check_by_replay=False)
    before = json.dumps(g.to_json(), sort_keys=True)
    for answer in g.legal_actions():
        with pytest.raises(GameError, match="state restored") as err:
            g.apply(answer)
        assert not isinstance(err.value, AssertionError) and "\n" not in str(err.value)
        assert json.dumps(g.to_json(), sort_keys=True) == before


def test_first_difference_names_the_json_path_and_tells_numbers_from_booleans() -> None:
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}) is None
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == \
        ("$.a[1].b", "the save says 2; the position its answers reach has 3")
    assert first_difference({"x": 1}, {"x": True})[0] == "$.x"
    assert first_difference({"$u": [1, 2]}, {"$u": [1]}) == \
        ('$["$u"]', "the save has 2 items; the position its answers reach has 1")
    assert first_difference({"k": 1}, {})[1].startswith("the save has this entry")


def test_play_resume_refuses_a_forged_save_in_one_line(tmp_path: Path) -> None:
    f = tmp_path / "forged.json"
    f.write_text(json.dumps(F.forged("doom-minus-7")))
    code, out, err = run_cli(["play", "--resume", str(f), "--agents", "random", "--quiet"])
    lines = err.strip().splitlines()
    assert code not in (0, None) and len(lines) == 1 and "$.snapshot.doom.sleeper" in lines[0], err
    assert str(f) in lines[0] and "Traceback" not in err


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_web_boards_load_refuses_a_forged_save() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from necronomicon.tools.web.app import create_app
    client = TestClient(create_app(), base_url="http://127.0.0.1:8765")   # a name the server answers to
    r = client.post("/api/load", json={"save": F.forged("pending-player-changed")})
    assert r.status_code == 400 and "$.snapshot.pending.player" in r.json()["message"], r.text
    r = client.post("/api/load", json={"save": F.real_save("duel")})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(("key", "value", "refusal"), [
    ("doom", -7, r"\$\.snapshot\.doom\.great-cthulhu: -7 is below 0"),
    ("ritual", 10**15, r"\$\.snapshot\.ritual: 1000000000000000 is off the Ritual track \(0 to \d+ for 4 players"),
    ("round", 41, r"\$\.snapshot\.round: 41 is not a round of this game \(1 to 40\)"),
    ("winners", ["great-cthulhu"], r"\$\.snapshot\.winners: .* in a game that is not over"),
])
def test_numbers_out_of_the_rules_ranges_are_refused_even_without_the_replay(key: str, value: object,
                                                                             refusal: str) -> None:
    data = F.real_save("four")
    if key == "doom":
        data["snapshot"]["doom"]["great-cthulhu"] = value
    else:
        data["snapshot"][key] = value
    for check_by_replay in (True, False):
        with pytest.raises(SaveError, match=f"^save: {refusal}"):
            Game.from_json(F.content(), data, check_by_replay=check_by_replay)


def test_the_hostile_benchmark_runs_the_forgeries_in_their_own_processes(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import hostile
    assert hostile.main(["--only", "forged-save:end-turn"]) == 0
    out = capsys.readouterr().out
    assert "inputs tried: 1 " in out and "illegal moves from a loaded save: 0" in out, out


@pytest.mark.parametrize("chunk", range(2))
def test_no_failing_answer_on_a_mutated_position_set_up_by_hand_changes_anything(chunk: int) -> None:
    """Loaded without the replay (as a test's hand-made position is), a mutated save may hold a
    position no rule reaches; an answer the rules then fail on is one GameError line, the game as
    it was (mutation 2414 raised a bare StopIteration, 'battle record removed' an AssertionError)."""
    failed = 0
    for seed in range(2300 + chunk * 100, 2400 + chunk * 100):
        try:
            g = Game.from_json(F.content(), F.mutation(seed), check_by_replay=False)
        except SaveError:
            continue
        for answer in g.legal_actions()[:6]:
            before = json.dumps(g.to_json(), sort_keys=True)
            copy = g.clone()
            try:
                copy.apply(answer)
            except GameError as exc:
                failed += 1
                assert "\n" not in str(exc) and json.dumps(copy.to_json(), sort_keys=True) == before, \
                    f"mutation {seed}, '{answer}': {exc}"
    assert failed > 0
