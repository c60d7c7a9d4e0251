"""The round's queries: whose turn is next, passing, the position's key, the Ritual track and its
costs, and victory. The round's procedures are in round.py, turn.py and doom.py."""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from .state import STATE_FIELDS, State, key_bytes
from .state_fields import SAVED_IN_C
from . import basics
from .basics import emit, integer
from . import core
from .host import RulesContext

SPELLBOOKS = 6   # a faction's spellbooks: all of them are needed to win (`victory.six-spellbooks`)


# the fields a position key reads beside the units (first) and memory (last), in field order, each
# with whether the compiled core holds it as a C field (state_fields.SAVED_IN_C, read as an attribute)
# or in a State's `__dict__` (read there: cheaper than an attribute)
_KEYED = tuple(f.name for f in STATE_FIELDS if f.name not in ("seq", "memory", "flow", "pending", "units"))
_KEYED_READS = tuple((name, name in SAVED_IN_C) for name in _KEYED)


def _keyed_rest(s: State) -> tuple[Any, ...]:
    """The values of `_KEYED` in `s`, in field order (one pass: no reordering of two reads)."""
    d = s.__dict__
    return tuple([getattr(s, name) if in_c else d[name] for name, in_c in _KEYED_READS])


def next_player(g: "RulesContext", p: str) -> str:
    order = g.s.order_from(p)
    return order[1 % len(order)]


def out_of_actions(g: "RulesContext", p: str) -> bool:
    """Whether `p` may take no more actions this Action Phase, as if it had 0 Power (an effect
    said so, e.g. with `end_actions`): its turns pass and move the turn surcharge."""
    return p in g.s.memory.get("no_actions", [])


def can_pass(g: "RulesContext", p: str) -> bool:
    mode = g.ruleset.settings.get("voluntary-drop", "always")
    return mode == "always" or g.s.power[p] <= 1


def position_key(g: "RulesContext") -> str:
    """The position without its event counter: equal keys mean nothing on the board changed.

    The sha1 of the saved fields but `seq`, `flow` and `pending`, the units first, the rest in
    field order, `memory` (without its action counters) last, each as `key_bytes` (equal bytes
    exactly for equal data). The units are hashed once while they are unchanged
    (`State.units_hash`): they are most of the position and change less often than the rest."""
    s = g.s
    memory = s.memory
    if "action_no" in memory or "actions" in memory:
        memory = dict(memory)   # (a copy and two pops: the other entries keep their order)
        memory.pop("action_no", None)
        memory.pop("actions", None)
    h = s.units_hash()
    h.update(key_bytes((_keyed_rest(s), memory)))
    return h.hexdigest()


def doom_goal(g: "RulesContext") -> int:
    """The Doom that ends the game (the ruleset's `victory.doom`, 30 unless it says otherwise)."""
    return int(g.ruleset.settings.get("victory", {}).get("doom", 30))


def reveal_reaches_goal(g: "RulesContext", q: str) -> bool:
    """Whether revealing its Elder Signs would bring `q` from below the Doom goal to it (what
    `turn.OfferReveals` offers)."""
    signs = g.s.elder_signs[q]
    if not signs:
        return False
    doom, goal = g.s.doom[q], doom_goal(g)
    # not `doom < goal <= doom + sum(signs)`: compiled by Cython 3.3, a chained comparison whose
    # second operand raises (a masked copy's signs are None) takes one reference too many from
    # True, and enough of them crash the interpreter (tests/test_compiled_refcounts.py)
    return doom < goal and goal <= doom + sum(signs)


def reveal_could_end_game(g: "RulesContext") -> bool:
    """Whether revealing would bring some player to the Doom goal (else nothing is offered)."""
    for q in g.s.players:   # (a loop: the compiled core makes no generator for it)
        if reveal_reaches_goal(g, q):
            return True
    return False


def doom_reached(g: "RulesContext") -> bool:
    goal = doom_goal(g)
    return any(g.s.doom[p] >= goal for p in g.s.players)


def ritual_cost(g: "RulesContext", p: str) -> int:
    base = ritual_track_cost(g)
    return max(0, integer(g, core.modified(g, "ritual-cost", base, {"player": p}, p), "ritual cost"))


def ritual_track_cost(g: "RulesContext") -> int:
    """The cost the Ritual track's marker shows now, before any player's own discount."""
    track = ritual_track(g)
    return int(track[min(g.s.ritual, len(track) - 1)])


def ritual_track(g: "RulesContext") -> list[int]:
    tracks = g.ruleset.settings.get("ritual-track", {})
    n = str(len(g.s.players))
    track = tracks.get(n) or tracks.get("default")
    if not track:
        raise RuleError(f"ruleset '{g.ruleset.id}' has no ritual track for {n} players")
    return list(track)


def rituals_left(g: "RulesContext") -> int:
    """How many Rituals of Annihilation the track has left before Instant Death (1: the next
    one ends the game after its Doom Phase)."""
    return max(0, len(ritual_track(g)) - g.s.ritual)


def has_all_spellbooks(g: "RulesContext", p: str) -> bool:
    """Whether `p` holds all SPELLBOOKS spellbooks (a win's condition where the ruleset asks
    for them; the Unlimited Battle's)."""
    return len(g.s.spellbooks.get(p, [])) >= SPELLBOOKS


def needs_six_spellbooks(g: "RulesContext") -> bool:
    """Whether only players with all six spellbooks can win (the ruleset's `victory.six-spellbooks`,
    true unless it says otherwise, as in the rulebook's game)."""
    return bool(g.ruleset.settings.get("victory", {}).get("six-spellbooks", True))


def finish(g: "RulesContext", reason: str) -> None:
    """The game ends: elder signs are revealed, the most Doom among those eligible wins."""
    s = g.s
    for p in s.players:
        basics.reveal_elder_signs(g, p)
    need_six = needs_six_spellbooks(g)
    eligible = [p for p in s.players if not need_six or has_all_spellbooks(g, p)]
    if not eligible:
        s.winners = []
    else:
        top = max(s.doom[p] for p in eligible)
        s.winners = [p for p in eligible if s.doom[p] == top]
    s.over = True
    s.end_reason = reason
    s.step = {"phase": "over"}
    emit(g, "game-over", winners=s.winners, reason=reason, doom=dict(s.doom))
