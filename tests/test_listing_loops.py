"""The listings written as plain loops that skip the modifiers none has in play (session 21, issue
29) list the same options in the same order as before, at seeded positions of Duel, 4-player and
expansion games, for every player; unit costs and combat too. Each game's listings are hashed; the
digests were made by the code as it was before that change (commit 1050a1c), so a change to any
listing's options, their order or a cost shows here as a changed digest. A rule change that changes a
listing on purpose updates the digest, as it does the answer hashes."""
from __future__ import annotations

from typing import Any

import hashlib

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.effects.compiler import RuleError
from necronomicon.interpreter.engine import actions, basics, core, moves
from necronomicon.interpreter.engine.agents import HeuristicAgent, RandomAgent
from necronomicon.interpreter.engine.game import Game

GAMES = [  # (expansions, ruleset, factions, agent, seed, the listings' digest, players listed)
    ((), "duel", ["sleeper", "wind-rider"], RandomAgent, 1, "c404e08650b1999b", 52),
    ((), "duel", ["sleeper", "wind-rider"], HeuristicAgent, 2, "ecdccd772a29ff27", 120),
    ((), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], RandomAgent, 1,
     "4da9bb82af22fd58", 204),
    ((), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], HeuristicAgent, 3,
     "df641193fd7829d0", 240),
    (("independents", "azathoth"), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"],
     RandomAgent, 4, "ecfd4ea8f36953d5", 192),
    (("independents", "azathoth"), "multiplayer", ["sleeper", "wind-rider", "black-goat"], RandomAgent, 5,
     "0fe61aa32db892c2", 99),
]
DECISIONS = 300
EVERY = 5


def _or_error(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except RuleError as exc:   # a unit whose cost or combat is unknown: both ways must say so
        return ("RuleError", str(exc))


def _write(g: Any, h: Any, m: Any = None) -> int:
    """Every listing and cost at this position, for every player, written into the hash `h`
    (`m`: where the listings are; the engine's own by default); how many players were listed."""
    act, mv, co = (m, m, m) if m is not None else (actions, moves, core)
    s = g.s
    n = 0

    def put(x: Any) -> None:
        h.update(repr(x).encode())
        h.update(b"\n")

    for p in s.players:
        put(act.main_actions(g, p))
        put(act.unlimited_actions(g, p))
        for unlimited in (False, True):
            put(act.summon_actions(g, p, unlimited))
        put(act.battle_actions(g, p, "battle"))
        put(act.unit_gates(g, p))
        for within in (None, *sorted(s.places_of(p))[:2]):   # dicts: the order of the labels too
            put([(label, o.cost) for label, o in mv.move_options(g, p, set(), set(), within).items()])
        for a in sorted(s.places_of(p)):
            put(act._captors(g, p, a))
            for e in s.others(p):
                put(act.capture_targets(g, p, e, a))
        for t in basics.faction(g, p).units.values():
            put(_or_error(co.unit_cost, g, p, t))
        mods = core.modifiers_of(g, "combat")
        for u in s.on_map(p):
            for foe in (None, *s.others(p)):
                put(_or_error(co.combat_of, g, u, foe))
                put(_or_error(co.combat_of, g, u, foe, mods))
        n += 1
    return n


@pytest.mark.parametrize(("expansions", "ruleset", "factions", "agent", "seed", "digest", "listed"), GAMES,
                         ids=[f"{r}-{len(f)}p-{a.__name__}-{'+'.join(e) or 'core'}" for e, r, f, a, *_ in GAMES])
def test_the_loops_list_what_the_listings_listed_before(expansions: tuple[str, ...], ruleset: str,
                                                         factions: list[str], agent: Any, seed: int,
                                                         digest: str, listed: int) -> None:
    c = load_content(expansions=list(expansions)).require_ok()
    g = Game(c, ruleset, factions, seed)
    agents = {p: agent(seed * 7 + i) for i, p in enumerate(g.s.players)}
    h = hashlib.sha256()
    compared = 0
    for k in range(DECISIONS):
        d = g.pending
        if d is None:
            break
        if k % EVERY == 0:
            compared += _write(g.rules, h)
        g.apply(agents[d.player].choose(d.player, d.options, d))
    assert compared == listed   # the same positions were listed (the game itself is the same)
    assert h.hexdigest()[:16] == digest
