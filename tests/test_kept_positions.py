"""What the speed work keeps instead of recomputing gives the same answers as recomputing.

- `State.pack()` (the position `apply` keeps for rollback and undo) reads back, with
  `State.unpack()`, as the JSON round trip of the state, and shares nothing with it.
- `Game.position_key()` is the sha1 of the keyed fields in marshal's format 2 (keys are kept in the
  turn's frame, so saves hold them): its kept units part never goes stale, and a position read back
  from JSON (a loaded save) has the same key.
- A timing window or a requirement check with nothing to do is not opened; one that has
  something to do is (a requirement check that would find nothing met makes no frame).
"""
from __future__ import annotations

import hashlib
import json
import marshal
from functools import cache
from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.abilities import quiet_window, requirements_to_check
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.state import STATE_FIELDS, State
from necronomicon.interpreter.engine import abilities
from necronomicon.interpreter.engine import core
from necronomicon.interpreter.engine import core_procs
from necronomicon.interpreter.engine.held_conditions import met_now
from necronomicon.interpreter.engine import phases

CASES = [("duel", ["sleeper", "wind-rider"], False),
         ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], False),
         ("multiplayer", ["sleeper", "yellow-sign", "crawling-chaos"], True)]


@cache
def _content(expanded: bool) -> Content:
    return load_content(expansions=["independents", "azathoth"] if expanded else []).require_ok()


def _positions(ruleset: str, factions: list[str], expanded: bool, seed: int = 5, n: int = 160) -> Any:
    """The game at each of its first `n` decisions (the same Game object, moving on)."""
    g = Game(_content(expanded), ruleset, factions, seed)
    agents = {p: RandomAgent(seed * 7 + i) for i, p in enumerate(g.s.players)}
    for _ in range(n):
        d = g.pending
        if d is None:
            return
        yield g
        g.apply(agents[d.player].choose(d.player, d.options, d))


def _key_as_defined(g: Game) -> str:
    rest = tuple(getattr(g.s, f.name) for f in STATE_FIELDS
                 if f.name not in ("seq", "memory", "flow", "pending", "units"))
    memory = {k: v for k, v in g.s.memory.items() if k not in ("action_no", "actions")}
    return hashlib.sha1(marshal.dumps(g.s.units, 2) + marshal.dumps((rest, memory), 2)).hexdigest()


@pytest.mark.parametrize(("ruleset", "factions", "expanded"), CASES)
def test_a_packed_position_reads_back_as_the_json_round_trip_and_shares_nothing(
        ruleset: str, factions: list[str], expanded: bool) -> None:
    for i, g in enumerate(_positions(ruleset, factions, expanded)):
        if i % 7:
            continue
        packed = g.s.pack()
        back = State.unpack(packed)
        assert back == State.from_text(g.s.to_text())
        back.units[0]["loc"] = "elsewhere"
        back.flow.append({"proc": "x"})
        back.power[g.s.players[0]] += 5
        assert State.unpack(packed) == State.from_text(g.s.to_text())   # the record did not change
        assert g.s.units[0]["loc"] != "elsewhere" and g.s.flow[-1] != {"proc": "x"}


def test_a_kept_packed_units_part_is_renewed_after_a_unit_write() -> None:
    g = next(iter(_positions("duel", ["sleeper", "wind-rider"], False, n=1)))
    before = g.s.pack()
    u = g.s.units[0]
    core.relocate(g.rules, u, "pool" if u["loc"] != "pool" else g.s.home[u["owner"]], "test")
    after = State.unpack(g.s.pack())
    assert after.units == g.s.units and State.unpack(before).units != g.s.units


@pytest.mark.parametrize(("ruleset", "factions", "expanded"), CASES)
def test_the_position_key_is_as_defined_and_the_same_after_a_json_round_trip(
        ruleset: str, factions: list[str], expanded: bool) -> None:
    for i, g in enumerate(_positions(ruleset, factions, expanded)):
        assert phases.position_key(g.rules) == _key_as_defined(g)
        assert phases.position_key(g.clone().rules) == phases.position_key(g.rules)
        if i % 5 == 0:
            loaded = Game.from_json(_content(expanded), json.loads(json.dumps(g.to_json())))
            assert phases.position_key(loaded.rules) == phases.position_key(g.rules)


def test_the_position_key_tells_apart_what_json_tells_apart() -> None:
    g = next(iter(_positions("duel", ["sleeper", "wind-rider"], False, n=1)))
    key = phases.position_key(g.rules)
    g.s.power[g.s.players[0]] += 1
    assert phases.position_key(g.rules) != key
    g.s.power[g.s.players[0]] -= 1
    assert phases.position_key(g.rules) == key
    g.s.memory["actions"] = 7   # the action counters are not part of the position
    assert phases.position_key(g.rules) == key
    controllers = {gate.get("controller") for gate in g.s.gates.values()}
    u = next(x for x in g.s.units if x["id"] not in controllers)   # (a controller leaving abandons its gate)
    where = u["loc"]
    core.relocate(g.rules, u, "pool" if where != "pool" else g.s.home[u["owner"]], "test")   # the units' kept hash follows
    assert phases.position_key(g.rules) != key
    core.relocate(g.rules, u, where, "test")
    assert phases.position_key(g.rules) == key


def test_a_window_nobody_uses_is_not_opened_and_one_in_use_is() -> None:
    g = Game(_content(False), "duel", ["sleeper", "wind-rider"], 3)
    used = {ab.window for p in g.s.players for ab in abilities.active_abilities(g.rules, p)} \
        | {ab.window for ab in g.ruleset.abilities}
    timed = {r.when for fac in g.content.factions.values() for r in fac.requirements}
    assert "gate-created" in used and "unit-moved" not in used | timed
    assert quiet_window(g.rules, "unit-moved") and core.window_call(g.rules, "unit-moved", {}) is None
    assert not quiet_window(g.rules, "gate-created") and core.window_call(g.rules, "gate-created", {}) is not None


def test_a_requirement_check_with_nothing_to_check_is_not_started() -> None:
    g = Game(_content(False), "duel", ["sleeper", "wind-rider"], 3)
    assert requirements_to_check(g.rules, "state", g.s.players)
    assert not requirements_to_check(g.rules, "unit-moved", g.s.players)
    assert core.check_requirements_call(g.rules, "unit-moved") is None
    assert core.check_requirements_call(g.rules, "state") is not None


@pytest.mark.parametrize(("ruleset", "factions", "expanded"), CASES)
def test_a_requirement_check_that_would_find_nothing_makes_no_frame(
        ruleset: str, factions: list[str], expanded: bool) -> None:
    """`core_procs.requirements_call` makes a check's frame exactly when the check has something to
    do: loyalty cards in play (their check always runs), or a requirement checked then that is not
    earned and whose condition holds (`met_now`, asked requirement by requirement here)."""
    found = {True: 0, False: 0}
    for i, g in enumerate(_positions(ruleset, factions, expanded, n=200)):
        if i % 3:
            continue
        for when in ("state", "after-action", "gather-power"):
            something = bool(g.s.loyalty) or any(
                r.id not in g.s.requirements[p] and met_now(g.rules, p, r.id, r, when, None)
                for p in g.s.players for r in g.content.factions[p].requirements)
            call = core_procs.requirements_call(g.rules, when)
            assert (call is not None) == something, (i, when)
            if call is not None:
                assert call.frame["proc"] == "requirements" and call.frame["when"] == when
            found[something] += 1
    assert found[False] if not expanded else found[True] and not found[False]   # loyalty cards: always checked
    assert found[True] or ruleset != "duel"   # the seeded Duel reaches a position where one is met
