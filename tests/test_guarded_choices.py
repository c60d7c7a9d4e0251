"""A single choice whose list the action's condition says is not empty needs no dry run
(effects/guarded_choices.py): the proof is read from the syntax, holds only where nothing can have
changed between the condition and the choice, and checking mode confirms it with the dry run."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.tables import build_tables
from necronomicon.interpreter.effects import ast as A
from necronomicon.interpreter.effects.guarded_choices import nonempty_lists, proven_choices, shape
from necronomicon.interpreter.effects.parser import parse
from necronomicon.interpreter.engine import actions, feasible
from necronomicon.interpreter.engine import state as state_module
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.game import Game

CHOICES = {"choose_unit": (1, "units"), "choose_area": (1, "areas"), "choose_player": (1, "players"),
           "choose_option": (1, "options")}
NOTING = frozenset({"choose_unit", "choose_area", "choose_player"})
SAFE = frozenset({"count", "units", "areas", "gates", "distinct", "home"})   # not `power`: paying the cost changes it
MINE = "units(owner: me, kind: 'serpent-man')"


def _expr(text: str) -> Any:
    return parse(text, start="expr_start")


def _proven(effect: str, condition: str | None, where: str | None = None) -> list[str]:
    """The proven choices' names, sorted."""
    tree = parse(effect)
    ids = proven_choices(tree, _expr(condition) if condition else None, CHOICES, NOTING, SAFE,
                         _expr(where) if where else None)
    calls = [n for n in A._nodes(tree) if isinstance(n, A.Call) and n.name in CHOICES]
    return sorted(c.name for c in calls if id(c) in ids)


@pytest.mark.parametrize("condition", [f"count({MINE}) > 0", f"count({MINE}) >= 2", f"0 < count({MINE})",
                                       f"count({MINE}) != 0", f"power(me) > 1 and count({MINE}) >= 1"])
def test_a_condition_that_a_list_is_not_empty_is_read(condition: str) -> None:
    assert shape(_expr(MINE)) in [shape(e) for e in nonempty_lists(_expr(condition))]


@pytest.mark.parametrize("condition", [f"count({MINE}) >= 0", f"count({MINE}) > -1", f"count({MINE}) == 0",
                                       f"count({MINE}) > 0 or power(me) > 5", f"not count({MINE}) == 0",
                                       f"count({MINE}) < 3"])
def test_a_condition_that_does_not_say_so_is_not_read_as_saying_it(condition: str) -> None:
    assert shape(_expr(MINE)) not in [shape(e) for e in nonempty_lists(_expr(condition))]


def test_the_opening_choice_over_the_same_list_is_proven_whatever_the_layout_of_the_text() -> None:
    effect = f"let s = choose_unit(me,   units(owner: me, kind: 'serpent-man'))\nlet o = choose_player(me, enemies)\nhold(s, 'x')"
    assert _proven(effect, f"count({MINE}) > 0") == ["choose_unit"]


def test_a_choice_after_something_happened_or_over_another_list_is_not_proven() -> None:
    cond = f"count({MINE}) >= 2"
    after = f"let a = choose_unit(me, {MINE})\neliminate(a)\nlet b = choose_unit(me, {MINE})"
    assert _proven(after, cond) == ["choose_unit"]            # the first only
    assert _proven(f"let a = choose_unit(me, units(owner: me))", cond) == []
    assert _proven(f"let a = choose_unit(me, {MINE})", "count(units(owner: me)) > 0") == []


def test_a_list_that_reads_a_rebound_name_an_area_or_an_unsafe_query_is_not_proven() -> None:
    rebound = "let me = first(enemies)\nlet a = choose_unit(me, units(owner: me))"
    assert _proven(rebound, "count(units(owner: me)) > 0") == []
    where = "let a = choose_unit(me, units(area: area))"
    assert _proven(where, "count(units(area: area)) > 0") == []      # `area` is not bound at the condition
    rich = "let p = choose_player(me, [q for q in players if power(q) > 2])"
    assert _proven(rich, "count([q for q in players if power(q) > 2]) > 0") == []   # paying changes power


SWAP = "distinct([u.loc for u in units(class: ['monster', 'cultist']) if u.loc != self.loc])"


def test_the_area_an_action_ends_in_and_a_player_picked_from_owners_prove_lists() -> None:
    effect = """let a = area
let f = choose_player(me, distinct([u.owner for u in units(class: ['monster', 'cultist'], area: a)]))
let u = choose_unit(f, units(area: a, owner: f, class: ['monster', 'cultist']))
swap(self, u)"""
    assert _proven(effect, None, SWAP) == ["choose_player", "choose_unit"]
    # no `where`: the players may be none, but a player picked among them owns such a unit
    assert _proven(effect, None, None) == ["choose_unit"]
    other_kind = effect.replace("units(area: a, owner: f, class: ['monster', 'cultist'])",
                                "units(area: a, owner: f, class: 'monster')")
    assert _proven(other_kind, None, SWAP) == ["choose_player"]   # a Cultist there may be all f has
    other_area = effect.replace("let a = area", "let a = home(me)")
    assert _proven(other_area, None, SWAP) == []
    moved_area = effect.replace("let a = area", "let a = area\nlet area = home(me)")
    assert _proven(moved_area, None, SWAP) == []                  # `a` no longer stands for `area`
    after_a_verb = effect.replace("let a = area", "let a = area\ngain_power(me, 1)")
    assert _proven(after_a_verb, None, SWAP) == []                # stops at a call that is not a choice
    rebound = effect.replace("let a = area", "let a = area\nlet a = 3")
    assert _proven(rebound, None, SWAP) == []


DREAMS_WHERE = "distinct(pluck(without(units(kind: 'acolyte'), units(owner: me, kind: 'acolyte')), 'loc'))"
DREAMS = """let a = area
let e = choose_player(me, without(distinct(pluck(units(kind: 'acolyte', area: a), 'owner')), [me]))
let v = choose_unit(e, units(owner: e, kind: 'acolyte', area: a))
eliminate(v)"""
LISTS = SAFE | {"without", "pluck"}


def _proven_with_lists(effect: str, where: str) -> list[str]:
    tree = parse(effect)
    ids = proven_choices(tree, None, CHOICES, NOTING, LISTS, _expr(where))
    return sorted(c.name for c in A._nodes(tree) if isinstance(c, A.Call) and c.name in CHOICES and id(c) in ids)


@pytest.mark.parametrize(("where", "effect", "proven"), [
    (DREAMS_WHERE, DREAMS, ["choose_player", "choose_unit"]),
    # the same lists written as comprehensions, the named arguments in another order
    ("distinct([u.loc for u in without(units(kind: 'acolyte'), units(kind: 'acolyte', owner: me))])",
     DREAMS.replace("distinct(pluck(units(kind: 'acolyte', area: a), 'owner'))",
                    "[u.owner for u in units(area: a, kind: 'acolyte')]"), ["choose_player", "choose_unit"]),
    # the owned part is of another kind: the area's acolytes may all be mine
    (DREAMS_WHERE.replace("units(owner: me, kind: 'acolyte')", "units(owner: me, kind: 'monster')"), DREAMS,
     ["choose_unit"]),
    # another player's units taken out, or another player left out of the owners
    (DREAMS_WHERE.replace("owner: me", "owner: first(enemies)"), DREAMS, ["choose_unit"]),
    (DREAMS_WHERE, DREAMS.replace("[me]", "[enemies[0]]"), ["choose_unit"]),
    # only some of the area's owners are listed
    (DREAMS_WHERE, DREAMS.replace("distinct(pluck(units(kind: 'acolyte', area: a), 'owner'))",
                                  "[u.owner for u in units(kind: 'acolyte', area: a) if u.id > 3]"), ["choose_unit"]),
    # the owners of the acolytes in another area
    (DREAMS_WHERE, DREAMS.replace("let a = area", "let a = home(me)"), []),
])
def test_an_area_holding_a_unit_someone_else_owns_proves_the_list_of_its_other_owners(
        where: str, effect: str, proven: list[str]) -> None:
    assert _proven_with_lists(effect, where) == proven


def test_the_built_content_proves_the_choices_its_conditions_guard() -> None:
    c = load_content().require_ok()
    sleeper = c.model.factions["sleeper"]
    borrow = next(a for sb in sleeper.spellbooks.values() for a in sb.abilities if a.id == "borrow")
    assert borrow.effect.choice_lists == {("choose_unit", A.PROVEN), ("choose_player", "enemies")}
    goat = c.model.factions["black-goat"]
    two = next(r for r in goat.requirements if r.id == "eliminate-two-cultists")
    # `count(...) >= 2`: the second cultist is there after the first is eliminated, if eliminating
    # one sets off nothing that moves units (the engine's part: `removals_are_quiet`)
    assert two.action_effect.choice_lists == {("choose_unit", A.PROVEN), ("choose_unit", A.PAST_REMOVALS)}
    assert feasible.may_lack_a_part(two.action_effect, 4)
    assert not feasible.may_lack_a_part(two.action_effect, 4, quiet_removals=True)
    assert feasible.may_lack_a_part(two.action_effect, 4, proofs=False, quiet_removals=True)
    avatar = next(a for t in goat.units.values() for a in t.abilities if a.id == "avatar")
    assert avatar.effect.choice_lists == {("choose_player", A.PROVEN), ("choose_unit", A.PROVEN)}
    cthulhu = c.model.factions["great-cthulhu"]
    dreams = next(a for sb in cthulhu.spellbooks.values() for a in sb.abilities if a.id == "dreams")
    assert dreams.effect.choice_lists == {("choose_player", A.PROVEN), ("choose_unit", A.PROVEN)}


def _position_offering(ruleset: str, factions: list[str], prefix: str) -> Game:
    """A seeded random game at a position where an action whose label starts with `prefix` is offered."""
    c = load_content().require_ok()
    for s in range(1, 41):
        g = Game(c, ruleset, factions, s)
        agents = {p: RandomAgent(s * 7 + i) for i, p in enumerate(g.s.players)}
        while (d := g.pending) is not None:
            if any(o.startswith(prefix) for o in d.options):
                return g
            g.apply(agents[d.player].choose(d.player, d.options, d))
    raise AssertionError(f"no position offers {prefix}")


@pytest.mark.parametrize(("ruleset", "factions", "prefix"), [
    ("duel", ["sleeper", "wind-rider"], "ability borrow"),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], "ability avatar "),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], "ability ghroth"),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], "ability dreams ")])
def test_a_proven_action_is_offered_without_a_dry_run_and_checking_mode_runs_one(
        monkeypatch: Any, ruleset: str, factions: list[str], prefix: str) -> None:
    g = _position_offering(ruleset, factions, prefix)
    p = g.pending.player
    ability = prefix.split()[1]
    runs: list[str] = []   # the dry runs of this ability
    complete = feasible.can_complete
    monkeypatch.setattr(feasible, "can_complete", lambda game, key, run: (
        runs.append(key) if f"/{ability}" in key else None) or complete(game, key, run))
    monkeypatch.setattr(state_module, "CHECK_MEMO", False)
    offered = [o.label for o in actions.main_actions(g.rules, p) if o.label.startswith(prefix)]
    assert offered and runs == []
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    assert [o.label for o in actions.main_actions(g.rules, p) if o.label.startswith(prefix)] == offered
    assert len(runs) == len(offered)   # each proof was checked by a dry run
    # a dry run of this ability that disagrees (only this one: another proven action listed before
    # it, at the position the seeded game reaches, would otherwise be the one named)
    monkeypatch.setattr(feasible, "can_complete", lambda game, key, run: (
        False if f"/{ability}" in key else complete(game, key, run)))
    with pytest.raises(AssertionError, match=ability):
        actions.main_actions(g.rules, p)


def _proven_past(effect: str, condition: str) -> list[str]:
    """The names of the choices proven only when removals (`eliminate`, `kill`) are allowed."""
    tree = parse(effect)
    cond = _expr(condition)
    now = proven_choices(tree, cond, CHOICES, NOTING, SAFE)
    past = proven_choices(tree, cond, CHOICES, NOTING, SAFE, removals=frozenset({"eliminate", "kill"}))
    assert now <= past
    calls = sorted((n for n in A._nodes(tree) if isinstance(n, A.Call) and n.name in CHOICES),
                   key=lambda n: (n.line, n.col))
    return [c.name + str(i) for i, c in enumerate(calls) if id(c) in past - now]


@pytest.mark.parametrize(("condition", "proven"), [
    (f"count({MINE}) >= 2", ["choose_unit1"]), (f"count({MINE}) > 1", ["choose_unit1"]),
    (f"count({MINE}) >= 3", ["choose_unit1", "choose_unit2"]), (f"count({MINE}) > 0", []),
    (f"count({MINE}) >= 1", [])])
def test_a_count_in_the_condition_is_spent_one_by_one_on_removals(condition: str, proven: list[str]) -> None:
    effect = f"let a = choose_unit(me, {MINE})\neliminate(a)\nlet b = choose_unit(me, {MINE})\nkill(b)\n" \
             f"let c = choose_unit(me, distinct([u for u in {MINE}]))"
    assert _proven_past(effect, condition) == proven


@pytest.mark.parametrize("between", ["capture(a)", "gain_power(me, 1)\neliminate(a)", "eliminate(a)\nmove_to(a, 'x')",
                                     "eliminate(choose_unit(me, units()))"])
def test_only_a_removal_of_one_unit_is_counted(between: str) -> None:
    effect = f"let a = choose_unit(me, {MINE})\n{between}\nlet b = choose_unit(me, {MINE})"
    assert _proven_past(effect, f"count({MINE}) >= 5") == []


@pytest.mark.parametrize("listed", ["[u for u in units(owner: me, kind: 'serpent-man') if u.loc == home(me)]",
                                    "units(owner: me, kind: 'serpent-man', where: 'battle')", "areas(with_units_of: me)"])
def test_a_list_whose_items_a_removal_may_change_otherwise_is_not_counted(listed: str) -> None:
    effect = f"let a = choose_unit(me, {MINE})\neliminate(a)\nlet b = choose_unit(me, {listed})"
    assert _proven_past(effect, f"count({listed}) >= 5 and count({MINE}) > 0") == []


def test_removals_are_trusted_only_while_their_window_moves_no_unit() -> None:
    c = load_content(expansions=["independents", "azathoth"]).require_ok()
    for ruleset, factions in (("duel", ["sleeper", "wind-rider"]), ("two-player", ["great-cthulhu", "black-goat"]),
                              ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"])):
        assert feasible.removals_are_quiet(Game(c, ruleset, factions, 1).rules)   # Doom, Power, tallies only
    # a rule of the ruleset at the removal window that kills: the content's table says so
    loud = type("Ab", (), {"window": feasible.REMOVAL_WINDOW, "effect": type("Fx", (), {"calls": frozenset({"kill"})})(),
                          "modifiers": ()})()
    rs = c.model.rulesets["multiplayer"]
    model = dataclasses.replace(c.model, rulesets={**c.model.rulesets,
                                                   "multiplayer": dataclasses.replace(rs, abilities=(*rs.abilities, loud))})
    tables = build_tables(model)
    assert not tables.quiet_removals["multiplayer"] and tables.quiet_removals["duel"]


def test_the_second_cultist_is_offered_without_a_dry_run_and_checking_mode_runs_one(monkeypatch: Any) -> None:
    g = _position_offering("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"],
                           "requirement eliminate-two-cultists")
    p = g.pending.player
    runs: list[str] = []
    complete = feasible.can_complete
    monkeypatch.setattr(feasible, "can_complete", lambda game, key, run: (
        runs.append(key) if "eliminate-two-cultists" in key else None) or complete(game, key, run))
    monkeypatch.setattr(state_module, "CHECK_MEMO", False)
    offered = [o.label for o in actions.main_actions(g.rules, p) if o.label.startswith("requirement eliminate-two-cultists")]
    assert offered and runs == []
    quiet = feasible.removals_are_quiet
    monkeypatch.setattr(feasible, "removals_are_quiet", lambda game: False)   # a removal that might move units: the dry run again
    assert [o.label for o in actions.main_actions(g.rules, p) if o.label.startswith("requirement")] == offered
    assert len(runs) == 1
    monkeypatch.setattr(feasible, "removals_are_quiet", quiet)
    monkeypatch.setattr(state_module, "CHECK_MEMO", True)
    assert [o.label for o in actions.main_actions(g.rules, p) if o.label.startswith("requirement")] == offered
    assert len(runs) == 2
    monkeypatch.setattr(feasible, "_search", lambda game, run: False)   # a dry run that disagrees
    with pytest.raises(AssertionError, match="eliminate-two-cultists"):
        actions.main_actions(g.rules, p)


L = f"units(owner: me, kind: 'serpent-man')"


@pytest.mark.parametrize(("effect", "proven"), [
    # an `if` branch's condition proves its list inside that branch only
    (f"if count({L}) > 0 {{ let x = choose_unit(me, {L}) }} else {{ let y = choose_unit(me, {L}) }}", [0]),
    (f"if power(me) > 2 {{ let z = 1 }} elif count({L}) >= 1 {{ let x = choose_unit(me, {L}) }}", [0]),
    # facts from before a `for` hold in its body when the body changes nothing...
    (f"for i in [1, 2] {{ let x = choose_unit(me, {L}) }}", [0]),
    # ...but not when it does (a later turn of the body starts from a changed state)
    (f"for i in [1, 2] {{ let x = choose_unit(me, {L})\ngain_power(me, 1) }}", []),
    # an `if` that changes nothing leaves the facts after it; one that may change the state ends them
    (f"if power(me) > 1 {{ let z = 1 }}\nlet x = choose_unit(me, {L})", [0]),
    (f"if power(me) > 1 {{ gain_power(me, 1) }}\nlet x = choose_unit(me, {L})", []),
    # `areas()` always has an option; an answer checked for none right after is optional
    ("let a = choose_area(me, areas())", [0]),
    ("let a = choose_area(me, areas(terrain: 'ocean'))", []),
    ("let p = choose_player(me, [u.owner for u in units(kind: 'x')])\nif p != none { gain_power(p, 1) }", [0]),
    ("let p = choose_player(me, [u.owner for u in units(kind: 'x')])\nif p != none and power(p) > 1 { gain_power(p, 1) }", [0]),
    ("let p = choose_player(me, [u.owner for u in units(kind: 'x')])\nif p != none { gain_power(p, 1) }\ngain_power(p, 1)", []),
    ("let p = choose_player(me, [u.owner for u in units(kind: 'x')])\nif p != none { gain_power(p, 1) } else { gain_power(me, 1) }", []),
    # the player picked from a named list's owners owns one of its units (Ghroth)
    ("let left = [c for c in units(class: 'cultist') if c.owner != me]\nif count(left) > 0 {\n"
     "let p = choose_player(me, distinct([c.owner for c in left]))\nlet c = choose_unit(p, units(owner: p, class: 'cultist')) }",
     [0, 1]),
    ("let left = [c for c in units(class: 'cultist') if c.owner != me]\ngain_power(me, 1)\nif count(left) > 0 {\n"
     "let p = choose_player(me, distinct([c.owner for c in left]))\nlet c = choose_unit(p, units(owner: p, class: 'cultist')) }",
     []),
])
def test_choices_inside_blocks_are_proven_by_what_holds_there(effect: str, proven: list[int]) -> None:
    tree = parse(effect)
    pure = SAFE | {"power"}
    ids = proven_choices(tree, _expr(f"count({L}) > 0") if "for i" in effect or "\nlet x" in effect else None,
                         CHOICES, NOTING, SAFE, pure_calls=pure)
    calls = sorted((n for n in A._nodes(tree) if isinstance(n, A.Call) and n.name in CHOICES), key=lambda n: (n.line, n.col))
    assert [i for i, c in enumerate(calls) if id(c) in ids] == proven


def test_ghroth_takes_no_dry_run() -> None:
    goat = load_content().require_ok().model.factions["black-goat"]
    ghroth = next(a for sb in goat.spellbooks.values() for a in sb.abilities if a.id == "ghroth")
    assert {var for _, var in ghroth.effect.choice_lists} == {A.PROVEN}
    assert not feasible.may_lack_a_part(ghroth.effect, 4)
