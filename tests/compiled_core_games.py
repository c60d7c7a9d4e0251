"""Seeded games played by whichever engine `import necronomicon` finds; prints one JSON line.

    python tests/compiled_core_games.py                      # the installed engine (compiled core)
    PYTHONPATH=. python tests/compiled_core_games.py         # the checkout's Python engine

Run by path, so the checkout is not on the path unless PYTHONPATH puts it there. tests/
test_compiled_core.py runs it both ways and compares: the two engines must play the same games
(every answer, every digest), with the same clones, saves, loads and undos along the way, and
refuse the same illegal answer with the same message.
"""
from __future__ import annotations

import gc
import hashlib
import json
import sys

from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.build_info import engine_build
from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.decisions import IllegalAction
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.seat import Seat

# (ruleset, factions, expansions, bots by seat, seed): every ruleset, the expansions, every kind of bot
GAMES = [
    ("duel", ["sleeper", "wind-rider"], [], ["random", "random"], 1),
    ("duel", ["sleeper", "wind-rider"], [], ["heuristic", "mcts:4:depth=10"], 2),
    ("two-player", ["great-cthulhu", "black-goat"], [], ["heuristic", "random"], 3),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat"], ["independents", "azathoth"],
     ["random", "heuristic", "mcts:4:depth=10"], 4),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], [],
     ["heuristic", "heuristic", "random", "random"], 5),
    ("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign", "sleeper"],
     ["independents", "azathoth"], ["random"] * 5, 6),
]
SEEDS = 3              # seeds per setup
MAX_DECISIONS = 1500   # per game: each ends well before (a seeded game is a few hundred decisions)
EVERY = 37             # every EVERY decisions: clone, save and load, undo and answer again


def play(content_by: dict[tuple[str, ...], object], setup: tuple) -> str:
    """One game; the hash of every answer, every digest and the final save, with the checks on the way."""
    ruleset, factions, expansions, bots, seed = setup
    key = tuple(expansions)
    if key not in content_by:
        content_by[key] = load_content(expansions=expansions).require_ok()
    content = content_by[key]
    g = Game(content, ruleset, list(factions), seed)
    agents = {}
    for i, (p, name) in enumerate(zip(factions, bots)):
        agents[p] = make_agent(name, seed * 10 + i)
        if hasattr(agents[p], "sit"):   # the bots that read their player's view
            agents[p].sit(Seat(g, p))
    h = hashlib.sha256()
    for k in range(MAX_DECISIONS):
        d = g.current()
        if d is None:
            break
        if k % EVERY == EVERY - 1:
            copy = g.clone()
            loaded = Game.from_json(content, json.loads(json.dumps(g.to_json())))
            try:
                g.apply("no-such-answer")
            except IllegalAction as exc:
                h.update(str(exc).encode())
            answer = agents[d.player].choose(d.player, d.options, d)
            for other in (copy, loaded):
                other.apply(answer)
            g.apply(answer)
            if k > 0:
                g.undo(1)
                g.apply(answer)
            assert copy.digest() == loaded.digest() == g.digest(), f"copies went apart at decision {k}"
        else:
            answer = agents[d.player].choose(d.player, d.options, d)
            g.apply(answer)
        h.update(f"{answer}|{g.digest()}\n".encode())
    h.update(json.dumps(g.to_json(), sort_keys=True).encode())
    h.update(g.result_line().encode())
    return h.hexdigest()[:16]


def trues_lost_to_failing_checks(times: int = 200) -> int:
    """References True lost over `times` reveal checks that raise (a masked copy's signs are None, as
    the search's copies hold them): 0 in Python; a compiled chained comparison once lost one a check
    (tests/test_compiled_refcounts.py)."""
    from necronomicon.interpreter.engine import phases
    g = Game(load_content(), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"], 7)
    for p in g.s.players:
        g.s.doom[p], g.s.elder_signs[p] = 10, [None]
    gc.collect()
    before = sys.getrefcount(True)
    for _ in range(times):
        try:
            phases.reveal_reaches_goal(g.rules, g.s.players[0])
        except TypeError:
            pass
    gc.collect()
    return before - sys.getrefcount(True)


def decision_behaviour() -> list[str]:
    """What a reader of a decision sees of `Decision` (a frozen dataclass in the Python engine, an
    extension type in the compiled core, decisions.pxd): repr, equality (records not compared),
    fields, replace, pickling, a copy, JSON, read-only fields, no hash."""
    import copy
    import dataclasses
    import pickle
    from necronomicon.interpreter.engine.decisions import Decision, new_decision
    d = Decision("red", "unit", ("a", "b"), "which?")
    e = new_decision("red", "unit", ("a", "b"), "which?", {}, {"a": None})
    out = [repr(d), repr(e), str(d == e), str(d != Decision("red", "unit", ("b",), "which?", {"k": 1})),
           repr((d.context, d.records, e.records)), str([f.name for f in dataclasses.fields(d)]),
           repr(dataclasses.replace(d, prompt="where?")), repr(pickle.loads(pickle.dumps(e)).records),
           repr(copy.deepcopy(e)), json.dumps(d.as_json())]
    try:
        d.player = "blue"   # type: ignore[misc]
    except AttributeError:   # (FrozenInstanceError in Python, a read-only attribute compiled: both AttributeError)
        out.append("read-only")
    try:
        hash(d)
    except TypeError:
        out.append("unhashable")
    return out


def option_behaviour() -> list[str]:
    """What a reader sees of an `Option` record (option_record.py; an extension type in the compiled
    core, option_record.pxd and option.pxd): as the named tuple it was, iterated, indexed, sliced,
    equal to and hashed as the tuple of its fields, ordered, repr, `_fields`, `_replace`, `_asdict`,
    pickling, a copy, JSON, read-only fields; its label made once, kept by `with_cost`."""
    import copy
    import pickle
    from necronomicon.interpreter.engine.option import Option, labelled_move, parse, with_cost
    o = Option("action", "battle", area="a", player="blue", cost=1)
    m = labelled_move("acolyte", "a", "b", 7, 1)[1]
    out = [repr(o), repr(m), str(list(o)), repr((o[1], o[-1], o[10], o[2:5], len(o), "battle" in o)),
           str((o == tuple(o), hash(o) == hash(tuple(o)), o != m, o < m, sorted([m, o]) == [o, m])),
           str(Option._fields), repr(o._replace(cost=2)), repr(o._asdict()), repr(pickle.loads(pickle.dumps(m))),
           repr(copy.deepcopy(m) == m), json.dumps(o.as_json()), o.label, m.label, with_cost(m, 3).label,
           repr(parse("action", "battle a blue") == o._replace(cost=None)), repr({o: 1}[tuple(o)])]
    try:
        o.cost = 3   # type: ignore[misc]
    except AttributeError:
        out.append("read-only")
    return out


def main() -> int:
    content_by: dict[tuple[str, ...], object] = {}
    games = [play(content_by, (*setup[:4], setup[4] + 100 * k)) for setup in GAMES for k in range(SEEDS)]
    build = engine_build()
    print(json.dumps({"compiled_modules": build.compiled, "modules": build.modules, "folder": str(build.folder),
                      "profile_guided": build.profile_guided, "games": games,
                      "trues_lost": trues_lost_to_failing_checks(), "decision": decision_behaviour(),
                      "option": option_behaviour()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
