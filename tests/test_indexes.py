"""The engine's derived indexes never go stale, and State.copy() is the JSON round trip.

The unit index (State: units by location, owner, id) and the memo of abilities and modifiers (one
per game) are rebuilt when `State.writes` changes; in checking mode (NECRO_CHECK_MEMO=1, here
switched on through the modules' flags) every use is compared with a fresh computation. Seeded
games of every ruleset, with the expansions, play the same answers with the checks on, and a
copy made by `State.copy()` equals the state read back from its JSON text and shares nothing.
"""
from __future__ import annotations

import hashlib
from functools import cache

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.effects.signatures import REGISTRY
from necronomicon.interpreter.engine import basics, rules as rules_module, rules_fields as rules_fields_module, state as state_module
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.state import State
from necronomicon.interpreter.engine import abilities
from necronomicon.interpreter.engine import core

FACTIONS = {
    ("duel", 2): ["sleeper", "wind-rider"],
    ("two-player", 2): ["yellow-sign", "crawling-chaos"],
    ("multiplayer", 4): ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"],
    ("multiplayer", 5): ["sleeper", "yellow-sign", "crawling-chaos", "wind-rider", "black-goat"],
}
DECISIONS = 250


@cache
def _content() -> Content:
    return load_content(expansions=["independents", "azathoth"]).require_ok()


def _play(ruleset: str, players: int, seed: int, every: int = 0) -> tuple[str, list[State]]:
    """Answers hash of a seeded random game (at most DECISIONS), and a copy of every `every`-th state."""
    g = Game(_content(), ruleset, FACTIONS[ruleset, players], seed)
    agents = {p: RandomAgent(seed * 7 + i) for i, p in enumerate(g.s.players)}
    h = hashlib.sha256()
    kept = []
    for n in range(DECISIONS):
        d = g.pending
        if d is None:
            break
        a = agents[d.player].choose(d.player, d.options, d)
        h.update(a.encode() + b"\n")
        g.apply(a)
        if every and n % every == 0:
            kept.append(g.s.copy())
    return h.hexdigest(), kept


@pytest.mark.parametrize(("ruleset", "players"), list(FACTIONS))
def test_games_are_the_same_with_every_index_use_checked(ruleset: str, players: int,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    plain, _ = _play(ruleset, players, 3)
    monkeypatch.setattr(rules_module, "CHECK_MEMO", True)
    monkeypatch.setattr(rules_fields_module, "CHECK_MEMO", True)   # (the memo lives there)
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    checked, _ = _play(ruleset, players, 3)   # a stale index or memo entry raises AssertionError
    assert checked == plain


@pytest.mark.parametrize(("ruleset", "players"), list(FACTIONS))
def test_a_state_copy_is_the_json_round_trip_and_shares_nothing(ruleset: str, players: int) -> None:
    _, states = _play(ruleset, players, 5, every=25)
    assert len(states) >= 3
    for s in states:
        c = s.copy()
        assert c == State.from_text(s.to_text()) and c.to_text() == s.to_text()
        assert c.to_dict() == State.from_text(s.to_text()).to_dict()
        c.units[0]["loc"] = "elsewhere"
        c.memory.setdefault("once", []).append("x")
        c.power[c.players[0]] += 1
        c.flow.append({"proc": "x"})
        assert s.to_text() != c.to_text() and State.from_text(s.to_text()) == s


def test_a_copy_turns_tuples_and_number_keys_into_json_shapes() -> None:
    s = State.from_text(Game(_content(), "duel", FACTIONS["duel", 2], 1).s.to_text())
    s.memory["pair"] = (1, ("a", None))
    s.memory["table"] = {1: [2.5], True: {"x": (3,)}}
    assert s.copy() == State.from_text(s.to_text())
    s.memory["bad"] = {1, 2}
    with pytest.raises(TypeError):
        s.copy()


def test_a_write_by_hand_is_seen_once_the_state_is_told(monkeypatch: pytest.MonkeyPatch) -> None:
    g = Game(_content(), "duel", FACTIONS["duel", 2], 1)
    p = g.s.players[0]
    area = sorted(g.layout.areas)[0]
    kinds = basics.in_play_kinds(g.rules, p)
    u = next(u for u in g.s.pool(p) if u["kind"] not in kinds)
    u["loc"] = area                    # a write outside the engine's primitives...
    monkeypatch.setattr(rules_module, "CHECK_MEMO", True)
    monkeypatch.setattr(rules_fields_module, "CHECK_MEMO", True)   # (the memo lives there)
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    with pytest.raises(AssertionError, match="stale"):
        basics.in_play_kinds(g.rules, p)              # ...is caught in checking mode
    g.s.written()                       # and is seen once the state is told
    assert u["kind"] in basics.in_play_kinds(g.rules, p) and u in g.s.units_at(area, p) and g.s.unit(u["id"]) is u


def _fresh(s: State) -> tuple[object, ...]:
    return state_module._build_index(s.units)


def test_a_move_updates_the_unit_index_in_place_in_the_order_of_the_units() -> None:
    g = Game(_content(), "multiplayer", FACTIONS["multiplayer", 4], 3)
    s = g.s
    kept = s._index()
    areas = sorted(g.layout.areas)
    moved = 0
    for u in list(s.units):          # every unit of the pool into one of a few areas, then some back
        if u["loc"] == "pool":
            core.relocate(g.rules, u, areas[u["id"] % 3], "test")
            moved += 1
    for u in s.units[::5]:
        core.relocate(g.rules, u, "pool", "test")
    assert moved and s._index() is kept          # never rebuilt...
    assert kept == _fresh(s)                     # ...and the same as a fresh one (lists in units' order)
    assert "pool" in kept[0] and all(kept[0].values())   # no empty list left behind


def test_units_whose_ids_do_not_ascend_get_their_index_rebuilt_after_a_move() -> None:
    g = Game(_content(), "duel", FACTIONS["duel", 2], 1)
    s = g.s
    s.units.reverse()                 # a state from elsewhere: ids not in the engine's order
    s.written()
    kept = s._index()
    u = next(u for u in s.units if u["loc"] == "pool")
    core.relocate(g.rules, u, sorted(g.layout.areas)[0], "test")
    assert s._index() is not kept and s._index() == _fresh(s)


def test_a_write_of_no_unit_keeps_the_unit_index_and_a_write_of_units_rebuilds_it() -> None:
    """The index is keyed on the writes that may change units (moves, `written()`): a spellbook or
    grant written (`written(units=False)`) keeps it, a unit written behind it and noted rebuilds it."""
    g = Game(_content(), "duel", FACTIONS["duel", 2], 1)
    s = g.s
    kept = s._index()
    s.written(units=False)
    assert s._index() is kept
    u = next(u for u in s.units if u["loc"] == "pool")
    u["loc"] = sorted(g.layout.areas)[0]   # a write outside the engine's primitives...
    s.written()                            # ...noted: the index is made again
    assert s._index() is not kept and s._index() == _fresh(s) and u in s.units_at(u["loc"])
    kept = s._index()
    core.relocate(g.rules, u, "pool", "test")   # a move after a write of no unit: kept in step
    s.written(units=False)
    assert s._index() is kept and kept == _fresh(s)


def test_a_move_that_leaves_the_kinds_in_play_keeps_the_facts_about_them_but_not_about_places() -> None:
    g = Game(_content(), "duel", FACTIONS["duel", 2], 1)
    s = g.s
    p = s.players[0]
    u = next(u for u in s.on_map(p))
    abilities.active_abilities(g.rules, p)
    g.rules.memo()[("areas-with", p)] = basics.MEMO_FACTS["areas-with"](g, p)   # a fact about places...
    facts = g.rules.memo()
    other = next(a for a in sorted(g.layout.areas) if a != u["loc"])
    core.relocate(g.rules, u, other, "test")
    assert g.rules.memo() is facts and ("abilities", p) in facts   # ...is dropped, the rest is kept
    assert ("areas-with", p) not in facts
    same = [x for x in s.on_map(p) if x["kind"] == u["kind"] and x is not u]
    assert same   # (the faction starts with several cultists of one kind)
    core.relocate(g.rules, u, "pool", "test")                    # off the map, others of its kind stay: kept
    assert g.rules.memo() is facts and ("abilities", p) in facts
    for x in same:                                   # the last of its kind leaves: the kinds change
        abilities.active_abilities(g.rules, p)
        facts = g.rules.memo()
        core.relocate(g.rules, x, "pool", "test")
    assert g.rules.memo() is not facts and u["kind"] not in basics.in_play_kinds(g.rules, p)
    facts = g.rules.memo()
    core.relocate(g.rules, u, other, "test")                     # the first of its kind comes back: changed
    assert g.rules.memo() is not facts and u["kind"] in basics.in_play_kinds(g.rules, p)
    abilities.active_abilities(g.rules, p)
    facts = g.rules.memo()
    core.relocate(g.rules, same[0], other, "test")               # a second one: kept
    assert g.rules.memo() is facts


def test_the_areas_query_gives_the_areas_a_scan_of_the_map_gives() -> None:
    """`areas(...)`'s shortcuts (no filter at all; only `with_units_of`) answer as a scan of the
    map with the filters does, at positions of a played game."""
    g = Game(_content(), "multiplayer", FACTIONS[("multiplayer", 4)], 3)
    areas = REGISTRY.functions["areas"]
    agent = RandomAgent(3)
    checked = 0
    while g.current() is not None and checked < 60:
        ctx = core.ctx(g.rules, g.s.players[0])
        assert areas(ctx) == sorted(g.layout.areas)
        for p in g.s.players:
            held = {u["loc"] for u in g.s.on_map(p)}
            assert areas(ctx, with_units_of=p) == sorted(a for a in g.layout.areas if a in held)
            assert areas(ctx, terrain="ocean") == sorted(a for a, x in g.layout.areas.items() if x.ocean)
        checked += 1
        d = g.current()
        g.apply(agent.choose(d.player, d.options, d))
    assert checked == 60


def _scanned(s: State, loc: str, owner: str | None = None) -> list[dict[str, object]]:
    return [u for u in s.units if u["loc"] == loc and (owner is None or u["owner"] == owner)]


def _check_queries_against_scans(s: State) -> None:
    """Every query read from the index by owner and place equals the same question asked by
    scanning all the units (the definition), in the order of the units."""
    owners = sorted({u["owner"] for u in s.units}) + ["nobody"]
    places = sorted({u["loc"] for u in s.units}) + ["nowhere"]
    for loc in places:
        assert s.units_at(loc) == _scanned(s, loc) and s.count_at(loc) == len(_scanned(s, loc))
        for p in owners:
            assert s.units_at(loc, p) == _scanned(s, loc, p)
            assert s.count_at(loc, p) == len(_scanned(s, loc, p))
    kinds = sorted({u["kind"] for u in s.units}) + ["no-such-kind"]
    for p in owners:
        assert sorted(s.places_of(p)) == sorted({u["loc"] for u in s.on_map(p)})
        assert s.pool(p) == _scanned(s, "pool", p)
        for kind in kinds:
            assert s.pool(p, kind) == [u for u in _scanned(s, "pool", p) if u["kind"] == kind]
            assert s.in_pool(p, kind) == bool(s.pool(p, kind))
        by_id = {u["id"]: u for u in s.units}
        assert s.controlled_gates(p) == [loc for loc, gate in s.gates.items()
                                         if gate.get("controller") is not None
                                         and by_id[gate["controller"]]["owner"] == p]
    for loc, gate in s.gates.items():
        uid = gate.get("controller")
        assert s.gate_owner(loc) == (None if uid is None else s.unit(uid)["owner"])


@pytest.mark.parametrize("ruleset,players", [("duel", 2), ("multiplayer", 4)])
def test_the_queries_by_owner_and_place_answer_as_a_scan_of_the_units_does(ruleset: str, players: int) -> None:
    g = Game(_content(), ruleset, FACTIONS[ruleset, players], 5)
    agents = {p: RandomAgent(11 + i) for i, p in enumerate(g.s.players)}
    kept = g.s._index()
    for step in range(300):
        d = g.current()
        if d is None:
            break
        g.apply(agents[d.player].choose(d.player, d.options, d))
        if step % 7 == 0:
            _check_queries_against_scans(g.s)
    _check_queries_against_scans(g.s)
    assert g.s._index() is not kept   # (the units did move: the index was kept in step or rebuilt)


def test_a_move_keeps_the_index_by_owner_and_place_in_step_without_a_rebuild() -> None:
    g = Game(_content(), "multiplayer", FACTIONS["multiplayer", 4], 3)
    s = g.s
    kept = s._index()
    areas = sorted(g.layout.areas)
    for u in list(s.units):
        if u["loc"] == "pool":
            core.relocate(g.rules, u, areas[u["id"] % 3], "test")
    for u in s.units[::4]:
        core.relocate(g.rules, u, "pool", "test")
    assert s._index() is kept and kept == _fresh(s)
    assert all(all(places.values()) for places in kept[3].values())   # no empty list left behind
    _check_queries_against_scans(s)


def test_the_content_table_of_unit_types_is_the_scan_of_the_content() -> None:
    """`basics.utype` reads content/tables.py's `unit_types`, and `basics.uclass` its `unit_classes`:
    for every owner a unit may have and every kind in the content (the expansions' too), the same
    type as the scan of factions, neutral units and loyalty cards in order, and that type's class; an
    unknown kind is still refused by name."""
    content = _content()
    g = Game(content, "multiplayer", FACTIONS["multiplayer", 4], 1).rules
    kinds = {k for f in [*content.model.factions.values(), *content.model.loyalty_cards.values()] for k in f.units}
    kinds |= set(content.model.neutral_units)
    assert len(kinds) > 20
    for owner in ["", *content.model.factions]:
        for kind in sorted(kinds):
            u = {"id": 1, "owner": owner, "kind": kind, "loc": "pool"}
            try:
                scanned = basics._scanned_utype(g, u)
            except basics.RuleError:   # a faction's kind under another owner: refused both ways
                with pytest.raises(basics.RuleError, match=f"unknown kind '{kind}'"):
                    basics.utype(g, u)
                with pytest.raises(basics.RuleError, match=f"unknown kind '{kind}'"):
                    basics.uclass(g, u)
                continue
            assert basics.utype(g, u) is scanned
            assert basics.uclass(g, u) == scanned.cls
    for unknown in (basics.utype, basics.uclass):
        with pytest.raises(basics.RuleError, match="unknown kind 'serpant'"):
            unknown(g, {"id": 7, "owner": "sleeper", "kind": "serpant", "loc": "pool"})
