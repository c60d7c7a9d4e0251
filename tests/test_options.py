"""Structured options (issue 15): every option of every decision says what it is, from one place
(engine/options.py), checked on seeded games of every ruleset and on the label grammar itself."""
from __future__ import annotations

from collections import Counter

import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.agents import HeuristicAgent, RandomAgent
from necronomicon.interpreter.engine.decisions import Decision
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.options import VERBS, Option, UnclassifiedOption, option_info, structured
from necronomicon.interpreter.engine.flow import decision_of
from necronomicon.interpreter.engine.seat import Seat, hand_seats
from necronomicon.interpreter.rl.vocabulary import Vocabulary

TABLES = [("duel", ["great-cthulhu", "crawling-chaos"]), ("two-player", ["black-goat", "yellow-sign"]),
          ("multiplayer", ["sleeper", "wind-rider", "great-cthulhu"]),
          ("multiplayer", ["crawling-chaos", "black-goat", "yellow-sign", "sleeper"]),
          ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign", "wind-rider"])]


def _check(g: Game, d: Decision, infos: list[Option], vocab: Vocabulary) -> None:
    assert [o.label for o in infos] == list(d.options)
    areas = set(g.layout.areas)
    costs = d.context.get("costs") or {}
    for o in infos:
        assert o.verb in VERBS
        assert o.unit_kind is None or vocab.index("kinds", o.unit_kind) >= 2, o
        assert o.area is None or o.area in areas, o
        assert o.dst is None or o.dst in areas, o
        assert o.ability is None or vocab.index("abilities", o.ability) >= 2, o
        assert o.spellbook is None or vocab.index("spellbooks", o.spellbook) >= 2, o
        assert o.player is None or o.player in g.s.players, o
        assert o.cost == costs.get(o.label), o
        if o.unit is not None:
            u = g.s.unit(o.unit)
            assert (u["kind"], u["loc"]) == (o.unit_kind, o.src), o


@pytest.mark.parametrize("ruleset, factions", TABLES)
def test_every_option_of_seeded_games_is_classified(builtin: Content, ruleset: str, factions: list[str]) -> None:
    vocab = Vocabulary.from_content(builtin)
    kinds: Counter[str] = Counter()
    for seed, bot in ((1, HeuristicAgent), (2, RandomAgent)):
        g = Game(builtin, ruleset, factions, seed)
        agents = {p: bot(seed * 7 + i) for i, p in enumerate(factions)}
        hand_seats(g, agents)
        while g.current() is not None:
            d = g.current()
            _check(g, d, structured(g), vocab)      # raises UnclassifiedOption for a label of no known form
            kinds[d.kind] += 1
            g.apply(agents[d.player].choose(d.player, d.options, d))
    assert {"action", "move", "unit", "spellbook", "doom"} <= set(kinds)


@pytest.mark.parametrize("ruleset, factions", [TABLES[0], TABLES[3]])
def test_a_decision_keeps_its_listings_records_and_a_seat_hands_them_over(builtin: Content, ruleset: str,
                                                                          factions: list[str]) -> None:
    """A turn's choice of action and a Move's choice of unit move keep the records their listings
    made (`Decision.records`, by label in the order of the options): what their labels and costs
    say (option_info), so a bot reads the same from them; a seat hands them over as they are, and
    reads the same from the labels of the decision as the state holds it (no records there)."""
    kept: Counter[str] = Counter()
    for seed, bot in ((1, HeuristicAgent), (2, RandomAgent)):
        g = Game(builtin, ruleset, factions, seed)
        agents = {p: bot(seed * 7 + i) for i, p in enumerate(factions)}
        hand_seats(g, agents)
        seats = {p: Seat(g, p) for p in factions}
        for _ in range(300):
            d = g.current()
            if d is None:
                break
            if d.records is not None:
                kept[d.kind] += 1
                assert list(d.records) == list(d.options)
                assert list(d.records.values()) == structured(g)
                handed = seats[d.player].options(d)
                assert len(handed) == len(d.options) and all(a is b for a, b in zip(handed, d.records.values()))
                stored = decision_of(g.s.pending)
                assert stored.records is None and seats[d.player].options(stored) == handed
            g.apply(agents[d.player].choose(d.player, d.options, d))
    assert kept["action"] > 0 and kept["move"] > 0 and set(kept) == {"action", "move"}


def test_what_an_option_is_depends_on_its_cost_players_and_areas_not_on_earlier_calls(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from necronomicon.interpreter.engine import options

    def info(label: str, players: list[str], areas: list[str], **ctx: object) -> Option:
        return option_info(Decision("red", "option" if label == "blue" else "unit", (label,), "?", dict(ctx)),
                           players, areas)[0]
    cheap = option_info(Decision("red", "action", ("summon ghoul a",), "?", {"costs": {"summon ghoul a": 1}}), ["red"], ["a"])
    dear = option_info(Decision("red", "action", ("summon ghoul a",), "?", {"costs": {"summon ghoul a": 2}}), ["red"], ["a"])
    again = option_info(Decision("red", "action", ("summon ghoul a",), "?", {"costs": {"summon ghoul a": 1}}), ["red"], ["a"])
    assert (cheap[0].cost, dear[0].cost, again[0].cost) == (1, 2, 1) and again[0] == cheap[0]
    assert info("blue", ["red", "blue"], []).verb == "player" and info("blue", ["red"], []).verb == "option"
    assert info("acolyte a#3", [], ["a"]).area == "a" and info("acolyte a#3", [], ["b"]).area is None
    monkeypatch.setattr(options, "_KNOWN_MAX", 2)
    for n in range(5):   # the tables of known options stay within their bound
        info(f"acolyte a#{n}", [], ["a"])
        assert options._kept <= 2 and sum(map(len, options._TABLES.values())) == options._kept
    assert info("acolyte a#4", [], ["a"]).unit == 4
    # one table per kind and sets of players and areas, however many calls made them
    monkeypatch.setattr(options, "_TABLES", {})
    monkeypatch.setattr(options, "_kept", 0)
    monkeypatch.setattr(options, "_KNOWN_MAX", 100)
    for n in range(2):
        info(f"acolyte a#{n}", ["red"], iter(["a", "b"]))
    assert len(options._TABLES) == 1 and options._kept == 2
    # a cost of the decision's context is the option's, an option without one is kept by its label
    costs = {"summon ghoul a": 1}
    one = option_info(Decision("red", "action", ("summon ghoul a", "pass"), "?", {"costs": costs}), ["red"], ["a"])
    assert [o.cost for o in one] == [1, None]
    assert set(next(iter(options._TABLES.values()))) >= {"acolyte a#0"}


def test_an_option_with_a_cost_is_the_option_replaced_field_by_field() -> None:
    from necronomicon.interpreter.engine.option import classify, with_cost
    for kind, label in (("action", "summon ghoul a"), ("move", "acolyte a->b#3"), ("unit", "acolyte a (gate)#3")):
        o = classify(kind, label, frozenset(), frozenset({"a", "b"}))
        for cost in (0, 2, None):
            costed = with_cost(o, cost)
            assert type(costed) is Option and costed == o._replace(cost=cost) and costed.cost == cost
            assert costed.label == label and costed.as_json() == o._replace(cost=cost).as_json()


def test_a_listed_unit_move_is_the_record_its_label_reads_back_to() -> None:
    """option.move makes a unit move's record as a tuple, its label with it: the record the keyword
    constructor makes, and the one its label and cost classify to; made once and shared."""
    from necronomicon.interpreter.engine.option import classify, move, with_cost
    o = move("acolyte", "a", "b", 3, 2)
    made = Option("move", "move-unit", unit_kind="acolyte", unit=3, src="a", dst="b", cost=2)
    assert type(o) is Option and tuple(o) == tuple(made) and o.label == made.label == "acolyte a->b#3"
    assert o == with_cost(classify("move", o.label, None, None), 2) and move("acolyte", "a", "b", 3, 2) is o
    assert move("acolyte", "a", "b", 3, 1).cost == 1 and move("ghoul", "a", "b", 3, 2).label == "ghoul a->b#3"



def test_the_move_listing_gives_each_moves_cost_by_label_when_asked(builtin: Content) -> None:
    """option.labelled_move is `move`'s shared record with its label; moves.move_options, given
    `costs`, fills it with each listed move's cost by label, in the listing's order (the Move action
    asks with it, reading no record's `cost`)."""
    from necronomicon.interpreter.engine import moves
    from necronomicon.interpreter.engine.option import labelled_move, move
    label, o = labelled_move("acolyte", "a", "c", 4, 1)
    assert label == o.label == "acolyte a->c#4" and o is move("acolyte", "a", "c", 4, 1)
    ruleset, factions = TABLES[0]
    g = Game(builtin, ruleset, factions, 1)
    for p in factions:
        costs: dict[str, int] = {}
        listed = moves.move_options(g.rules, p, set(), set(), None, costs)
        assert listed and list(costs) == list(listed) and costs == {k: r.cost for k, r in listed.items()}
        assert moves.move_options(g.rules, p, set(), set(), None) == listed


def test_a_units_moves_made_at_once_are_labelled_moves_own() -> None:
    """option.labelled_moves gives, for each destination in order, the very (label, record) pair
    labelled_move gives at 1 Power (its label move_label's text), new ones made and kept in the same
    table; a pair kept at another cost or kind is made again."""
    from necronomicon.interpreter.engine.option import labelled_move, labelled_moves, move_label
    pairs = labelled_moves("acolyte", "a", ["b", "c"], 905)
    assert [p[0] for p in pairs] == [move_label("acolyte", "a", d, 905) for d in "bc"] == ["acolyte a->b#905", "acolyte a->c#905"]
    assert [labelled_move("acolyte", "a", d, 905, 1) for d in "bc"] == pairs
    assert all(x is y for x, y in zip(labelled_moves("acolyte", "a", ["b", "c"], 905), pairs))
    dear = labelled_move("acolyte", "a", "d", 905, 2)
    again = labelled_moves("acolyte", "a", ["d", "b"], 905)
    assert again[0] != dear and again[0][1].cost == 1 and again[0][0] == dear[0] and again[1] is pairs[0]
    assert labelled_moves("ghoul", "a", ["b"], 905)[0][1].unit_kind == "ghoul"

def test_the_label_grammar() -> None:
    players, areas = ["red", "blue"], ["a", "b"]

    def one(kind: str, label: str, **ctx: object) -> dict[str, object]:
        return option_info(Decision("red", kind, (label,), "?", dict(ctx)), players, areas)[0].as_json()

    assert one("action", "summon ghoul a", costs={"summon ghoul a": 1}) == \
        {"label": "summon ghoul a", "verb": "summon", "unit_kind": "ghoul", "area": "a", "dst": "a", "cost": 1}
    assert one("action", "battle b blue") == {"label": "battle b blue", "verb": "battle", "area": "b", "player": "blue"}
    assert one("action", "ability ice-age b") == {"label": "ability ice-age b", "verb": "ability", "ability": "ice-age", "area": "b"}
    assert one("action", "requirement x+y") == {"label": "requirement x+y", "verb": "requirement", "ability": "x", "word": "y"}
    assert one("move", "acolyte a->b#7") == {"label": "acolyte a->b#7", "verb": "move-unit", "unit_kind": "acolyte",
                                            "src": "a", "dst": "b", "unit": 7}
    assert one("unit", "acolyte a (gate)#3") == {"label": "acolyte a (gate)#3", "verb": "unit", "unit_kind": "acolyte",
                                                "src": "a", "area": "a", "unit": 3, "gate": True}
    assert one("unit", "ghoul captured:blue#9")["src"] == "captured:blue" and "area" not in one("unit", "ghoul pool#9")
    assert one("option", "use frenzy") == {"label": "use frenzy", "verb": "use", "ability": "frenzy"}
    assert one("option", "blue") == {"label": "blue", "verb": "player", "player": "blue"}
    assert one("option", "clockwise") == {"label": "clockwise", "verb": "option", "word": "clockwise"}
    assert one("secret", "4") == {"label": "4", "verb": "pick", "value": 4}
    assert one("doom", "ritual", costs={"ritual": 5})["cost"] == 5
    for kind, label in (("action", "teleport a"), ("move", "acolyte a#3"), ("unit", "acolyte"), ("player", "green")):
        with pytest.raises(UnclassifiedOption, match=f"'{kind}' option '{label}'"):
            option_info(Decision("red", kind, (label,), "?"), players, areas)
