"""A state requirement's condition is kept while the state fields it reads are unchanged
(engine/held_conditions.py), and evaluated again as soon as one of them changes."""
from __future__ import annotations

from functools import cache

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import held_conditions as H, part_values as PV, state as state_module
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine import core


@cache
def _content() -> Content:
    return load_content().require_ok()


def _requirement(faction: str, rid: str):  # type: ignore[no-untyped-def]
    return next(r for r in _content().model.factions[faction].requirements if r.id == rid)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    evaluate = H._evaluate
    monkeypatch.setattr(state_module, "CHECK_MEMO", False)   # (checking mode evaluates every kept answer again)

    def counted(*args):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return evaluate(*args)
    monkeypatch.setattr(H, "_evaluate", counted)
    return calls


def test_the_parts_a_condition_reads_come_from_its_text() -> None:
    # gates' controllers: who owns a unit, not where it is; power(me): the player's own Power only
    assert H.parts_read(_requirement("crawling-chaos", "four-gates-or-15-power")) == ("gates@", "players", "power@", "unit-gates")
    # gates(terrain: ...) of anyone: where gates stand, not who controls them
    assert H.parts_read(_requirement("great-cthulhu", "ocean-gates")) == ("gate-places", "gates@", "players", "unit-gates")
    # areas(with_units_of: me): where the player's own units are
    assert H.parts_read(_requirement("black-goat", "units-in-4-areas")) == ("players", "units@")
    # units(owner: e) for every enemy: every unit
    assert H.parts_read(_requirement("black-goat", "share-areas-with-all-enemies")) == ("battle", "players", "units")
    assert H.parts_read(_requirement("wind-rider", "be-first-player")) == ("first", "players")
    # a condition about the event is never kept (it is checked with one)
    assert H.parts_read(_requirement("sleeper", "perform-ritual")) is None


def test_a_kept_answer_is_used_until_a_field_it_reads_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    g = Game(_content(), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 1)
    r = _requirement("crawling-chaos", "four-gates-or-15-power")
    calls = _counting(monkeypatch)
    p = "crawling-chaos"
    first = H.condition_holds(g.rules, p, r, None)
    g.s.doom[p] += 1                                   # not read by this condition
    g.s.memory["x"] = 1
    assert H.condition_holds(g.rules, p, r, None) == first and calls[0] == 1
    g.s.power["black-goat"] = 15                       # another player's Power: not read
    assert H.condition_holds(g.rules, p, r, None) == first and calls[0] == 1
    g.s.power[p] = 15                                  # read: evaluated again
    assert H.condition_holds(g.rules, p, r, None) is True and calls[0] == 2
    u = next(u for u in g.s.units if u["owner"] == p and u["loc"] == "pool")
    core.relocate(g.rules, u, sorted(g.layout.areas)[0], "test")   # a unit's move: who controls the gates is unchanged
    assert H.condition_holds(g.rules, p, r, None) is True and calls[0] == 2
    g.rules.state_written()                                  # any other unit write: the gates p controls are the same
    assert H.condition_holds(g.rules, p, r, None) is True and calls[0] == 2
    g.s.gates[sorted(g.layout.areas)[0]] = {"controller": u["id"]}   # a gate p controls now: read
    assert H.condition_holds(g.rules, p, r, None) is True and calls[0] == 3
    g.s.power[p] = 0
    assert H.condition_holds(g.rules, p, r, None) is False and calls[0] == 4
    assert H.condition_holds(g.rules, "black-goat", r, None) is not None and calls[0] == 5   # per player
    areas = _requirement("black-goat", "units-in-4-areas")
    H.condition_holds(g.rules, "black-goat", areas, None)
    core.relocate(g.rules, u, sorted(g.layout.areas)[1], "test")   # another player's unit: not read
    H.condition_holds(g.rules, "black-goat", areas, None)
    assert calls[0] == 6
    mine = next(x for x in g.s.units if x["owner"] == "black-goat" and x["loc"] == "pool")
    core.relocate(g.rules, mine, sorted(g.layout.areas)[1], "test")   # where its own units are: evaluated again
    H.condition_holds(g.rules, "black-goat", areas, None)
    assert calls[0] == 7
    H.condition_holds(g.rules, "black-goat", areas, None)
    g.rules.state_written()                                  # a write that is not a move (a unit may change hands)
    H.condition_holds(g.rules, "black-goat", areas, None)
    assert calls[0] == 8
    g.s.units.append(dict(mine, id=999))               # one more unit
    H.condition_holds(g.rules, "black-goat", areas, None)
    assert calls[0] == 9


def test_copies_start_without_kept_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    g = Game(_content(), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 1)
    r = _requirement("crawling-chaos", "four-gates-or-15-power")
    calls = _counting(monkeypatch)
    H.condition_holds(g.rules, "crawling-chaos", r, None)
    g.s = g.s.copy()          # a copy's write counter starts again: it must not meet the old answers
    H.condition_holds(g.rules, "crawling-chaos", r, None)
    assert calls[0] == 2


def test_checking_mode_catches_a_field_changed_that_the_tables_do_not_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g = Game(_content(), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 1)
    r = _requirement("crawling-chaos", "four-gates-or-15-power")
    monkeypatch.setitem(H.READS, "power", ())        # a wrong table...
    monkeypatch.setitem(H.SCOPED, "power", (frozenset({"player"}), frozenset(), ()))
    H._PARTS.clear()
    try:
        assert H.condition_holds(g.rules, "crawling-chaos", r, None) is False
        g.s.power["crawling-chaos"] = 15
        monkeypatch.setattr(state_module, "CHECK_MEMO", True)
        with pytest.raises(AssertionError, match="stale requirement condition"):
            H.condition_holds(g.rules, "crawling-chaos", r, None)    # ...is caught in checking mode
    finally:
        H._PARTS.clear()


@pytest.mark.parametrize(("condition", "parts"), [
    ("power(me) > 3", ("players", "power@")),
    ("power('crawling-chaos') > 3", ("players", "power")),              # a player named: everyone's
    ("power(me) > 3 and power(first(enemies)) > 3", ("players", "power")),
    ("count(areas(with_units_of: me, terrain: 'ocean')) > 1", ("players", "units@")),
    ("count(areas(with_units_of: me, controlled_by: me)) > 1", ("gates@", "players", "units@")),
    # areas(...) reads only what its filters read (the map itself never changes)
    ("count(areas(start_of: me, gate: true)) > 1", ("gate-places", "players")),
    ("count(areas(token: 'x', terrain: 'ocean')) > 1", ("players", "tokens")),
    ("count(areas(with_units_of: first(enemies))) > 1", ("players", "units")),
    ("count(areas(controlled_by: first(enemies))) > 1", ("gates", "players", "unit-owners")),
    ("count(areas()) > 1", ("players",)),
    ("count(gates(controlled_by: me)) > 1 and has_gate('x')", ("gate-places", "gates@", "players", "unit-gates")),
    ("count(gates(controlled_by: me)) > 1 and count(areas(controlled_by: first(enemies))) > 0",
     ("gates", "players", "unit-gates", "unit-owners")),                         # gates and owners hold gates@
    ("count(gates(controlled_by: me)) > count(gates())", ("gate-places", "gates@", "players", "unit-gates")),
    ("count(gates(controlled_by: first(enemies))) > 0", ("gates", "players", "unit-gates", "unit-owners")),
    ("count(gates()) > 0 and has_gate('x')", ("gate-places", "players", "unit-gates")),
    ("count(areas(gate: true)) > 0 and has_gate('x')", ("gate-places", "players")),
    ("count([me for me in enemies if power(me) > 1]) > 0", ("players", "power")),   # `me` rebound
    ("count(units(owner: me, area: areas(gate: true))) > 0", ("battle", "gate-places", "players", "units@")),
])
def test_a_call_passing_me_as_its_player_reads_only_that_players_part(condition: str, parts: tuple[str, ...]) -> None:
    from necronomicon.interpreter.content.effect_build import EffectBuilder

    class R:
        inputs = EffectBuilder.expr_inputs(condition)
    assert H.parts_read(R()) == parts


@pytest.mark.parametrize("a, b", [
    ([], []), ([], [{}]), (None, None), (None, []), (["a", "b"], ["a", "b"]), (["a", "b"], ["b", "a"]),
    (["a"], ["a", "b"]), (["1"], [1]), ([1], [True]), ([1], [1]), ({"a": 1}, {"a": True}),
    ({"a": 1, "b": 2}, {"b": 2, "a": 1}), ([{"id": 1}], [{"id": 1}]), (["a"], [["a"]]),
    ("a", "a"), ("a", "b"), ("a", ["a"]), ("a", None), ("1", 1), (1, True), (1, 1), (1, 1.0), (0, None), (0, []),
    ({}, {}), ({}, []), ({}, None), ({"a": "b"}, {"a": "b"}), ({"a": "b"}, {"a": "c"}), ({"a": "b"}, ["a", "b"]),
    ({"a": "b", "c": "d"}, {"c": "d", "a": "b"}), ({"a": None}, {"a": None}), ({"a": None}, {"a": []}),
    ({"a": ["x"]}, {"a": ["x"]}), ({"a": ["x"]}, {"a": "x"}), ({"a": ["x"]}, {"a": ("x",)}), ({"a": []}, {"a": []}),
    ({"a": ["x", 1]}, {"a": ["x", True]}), ({"a": ["x"], "b": []}, {"a": ["x"], "b": []}), ({1: "a"}, {1: "a"}),
    ({"a": "b"}, ("a", "b")), ({"a": "b"}, "a"), ({"a": "b"}, {"a": "b", "c": "d"}), ({"a": ["x"]}, {"a": ["x", "y"]}),
    ({"a": ["x"]}, {"b": ["x"]}), ({"a": None}, {"a": "b"}), (["a", 1], ["a", 1]), (["a", 1], ["a", True]),
])
def test_a_fields_kept_value_is_equal_exactly_when_its_data_are(a: object, b: object) -> None:
    """A field's value as the requirement keys keep it (`_value_of`: None, a tuple of strings, a
    dict's tuple (`_dict_value`), or marshal bytes) compares equal exactly when the fields' bytes do (`key_bytes`: 1 is not True,
    dicts in another order differ), whichever kind each side is made as."""
    from necronomicon.interpreter.engine.plain_data import key_bytes
    assert (PV.value_of(a) == PV.value_of(b)) == (key_bytes(a) == key_bytes(b))
    # a kept value compared in place (`_same`, a whole check's) is equal exactly when the two made are
    assert PV.same(a, PV.value_of(b)) == (PV.value_of(a) == PV.value_of(b))
    assert PV.same(b, PV.value_of(a)) == (PV.value_of(a) == PV.value_of(b))


def test_the_players_tokens_and_gates_are_kept_without_marshal() -> None:
    """The parts most conditions read are kept as what they are, not marshalled: the players and
    the gates (areas: strings) as tuples, no tokens as (), no battle as None."""
    g = Game(_content(), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 1)
    area = sorted(g.layout.areas)[0]
    u = next(u for u in g.s.units if u["owner"] == "crawling-chaos")
    g.s.gates[area] = {"controller": u["id"]}
    g.rules.state_written()
    assert PV.part_now(g.rules, "players", "crawling-chaos") == tuple(g.s.players)
    assert PV.part_now(g.rules, "gate-places", "crawling-chaos") == tuple(g.s.gates)
    assert PV.part_now(g.rules, "gates@", "crawling-chaos") == tuple(g.s.controlled_gates("crawling-chaos"))
    assert area in PV.part_now(g.rules, "gates@", "crawling-chaos")
    assert PV.part_now(g.rules, "battle", "crawling-chaos") is None
    g.s.tokens = []
    assert PV.part_now(g.rules, "tokens", "crawling-chaos") == ()
    g.s.tokens = [{"id": 1, "loc": area, "owner": "crawling-chaos"}]
    assert isinstance(PV.part_now(g.rules, "tokens", "crawling-chaos"), bytes)
    g.s.first = "black-goat"
    assert PV.part_now(g.rules, "first", "crawling-chaos") == "black-goat"   # a string stands for itself
    for field in ("home", "spellbooks"):   # dicts of strings to strings or lists of strings: a tuple
        kept = PV.part_now(g.rules, field, "crawling-chaos")
        assert type(kept) is tuple and kept == PV.dict_value(getattr(g.s, field))


def test_a_factions_checks_at_a_moment_are_found_once_from_the_content_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """`first_holding` looks at the requirements the content's table (`abilities.checked_positions`)
    says are checked at that moment, in their order, and asks the table once per faction and moment."""
    from necronomicon.interpreter.engine import abilities
    g = Game(_content(), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 1)
    asked: list[tuple[str, str]] = []
    positions = abilities.checked_positions

    def counted(game, p, when):  # type: ignore[no-untyped-def]
        asked.append((p, when))
        return positions(game, p, when)
    monkeypatch.setattr(abilities, "checked_positions", counted)
    monkeypatch.setattr(H, "_CHECKS", {})
    moments = ("state", "after-action", "unit-moved", "ritual")   # (none of these four checks one with an event)
    for _ in range(3):
        for p in g.s.players:
            for when in moments:
                H.first_holding(g.rules, p, when, None, 0, {})
    assert sorted(asked) == sorted({(p, w) for p in g.s.players for w in moments})
    for p in g.s.players:
        fac = g.rules.factions[p]
        reqs = fac.requirements
        for when in (*moments, "doom-phase", "on-awaken", "after-battle", "unit-captured"):
            checks = H._checks(g.rules, p, fac, when)
            assert [c[0] for c in checks] == list(positions(g.rules, p, when))
            assert all(c[1] is reqs[c[0]] and c[4] == (p, reqs[c[0]].key) for c in checks)


def test_a_check_reads_the_parts_not_of_one_player_once_for_all_the_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """In one check (one `seen`), a part that is the same for every player (the players, the
    tokens, the units that count as gates, the battle, which may be None ...) is read once; a
    player's own parts are read for each player; every key is the one read player by player."""
    g = Game(_content(), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 1)
    parts = ("battle", "gate-places", "gates@", "players", "power@", "tokens", "unit-gates", "units", "units@")
    reads = tuple(PV.reader(f) for f in parts)
    calls: list[str] = []
    read = PV.read

    def counted(game, code, name, p):  # type: ignore[no-untyped-def]
        calls.append(name)
        return read(game, code, name, p)
    monkeypatch.setattr(PV, "read", counted)
    seen: dict[object, object] = {}
    shared = [PV.key_of(g.rules, reads, p, seen) for p in g.s.players]
    players = len(g.s.players)
    assert sorted(calls) == sorted([*("battle", "gate-places", "players", "tokens", "unit-gates", "units"),
                                    *("gates@", "power", "units@") * players])
    calls.clear()
    assert shared == [PV.key_of(g.rules, reads, p) for p in g.s.players]
    assert len(calls) == len(reads) * players
    assert shared[0][0] is None   # no battle: read once all the same


def test_a_whole_check_is_kept_until_a_part_any_condition_reads_or_the_earned_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`first_holding` from the first requirement with no event and no battle is kept beside the
    values of every part its conditions read and the requirements earned: none is asked again
    while they are the same; a change of any of them, or of the earned list, asks again, and
    checking mode catches a kept answer that a change the tables do not name made wrong."""
    g = Game(_content(), "duel", ["sleeper", "wind-rider"], 1)
    p = "wind-rider"
    asked = [0]
    unmet = H._unmet_holding

    def counted(*args):  # type: ignore[no-untyped-def]
        asked[0] += 1
        return unmet(*args)
    monkeypatch.setattr(state_module, "CHECK_MEMO", False)
    monkeypatch.setattr(H, "_unmet_holding", counted)
    first = H.first_holding(g.rules, p, "state", None, 0, {})
    n = asked[0]
    assert n > 0
    g.s.power[p] += 1          # no condition of wind-rider's at "state" reads Power
    g.s.memory["x"] = 1
    assert H.first_holding(g.rules, p, "state", None, 0, {}) == first and asked[0] == n
    for change in ("spellbooks", "home", "first", "gates", "earned"):
        if change == "spellbooks":
            g.s.spellbooks[p] = [*g.s.spellbooks.get(p, []), "x"]
        elif change == "home":
            g.s.home[p] = "elsewhere"
        elif change == "first":
            g.s.first = "sleeper" if g.s.first != "sleeper" else p
        elif change == "gates":
            g.s.gates["nowhere"] = {"controller": None}
        else:
            g.s.requirements[p].append("nothing")
        before = asked[0]
        H.first_holding(g.rules, p, "state", None, 0, {})
        assert asked[0] > before, change          # asked again
        before = asked[0]
        H.first_holding(g.rules, p, "state", None, 0, {})
        assert asked[0] == before, change         # and kept again
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    H.first_holding(g.rules, p, "state", None, 0, {})
    held = g.rules.held_conditions()
    mark = next(k for k in held if type(k) is not tuple)
    now, done, found = held[mark]
    held[mark] = (now, done, (0, None) if found is None else None)   # a wrong kept answer
    with pytest.raises(AssertionError, match="stale requirement check"):
        H.first_holding(g.rules, p, "state", None, 0, {})
