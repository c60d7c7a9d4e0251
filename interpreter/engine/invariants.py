"""Invariants that hold whatever the content, checked in `--check` mode, by the soak and in tests.

Two entry points:

- `violations(game, before)` checks one state from scratch (and, given the previous snapshot,
  what may not go backwards); it rescans the whole log, so it is for tests and one-off checks.
- `Checker(game)` watches one game incrementally: it hooks the engine's event log and checks the
  cheap invariants after every logged event, and all of them after every decision.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .state import GENERAL, POOL
from . import basics
from .basics import MEMO_FACTS
from . import battle_queries
from . import core

if TYPE_CHECKING:
    from .host import CheckedGame

DEFAULT_ELDER_SIGNS = {"1": 18, "2": 12, "3": 6}


class InvariantError(Exception):
    """An invariant was broken; the message lists every violation."""


# ---- checks of one state -----------------------------------------------------------------------------
def _printed_units(game: "CheckedGame") -> Counter[tuple[str, str]]:
    """Each player's printed count of each of its units, plus the units of the neutral loyalty
    cards it holds (a memo fact, keyed also on who holds which card: a test may hand one over)."""
    memo = game.rules.memo()
    kept = memo.get(PRINTED_UNITS)
    if kept is None or kept[0] != tuple(sorted(game.s.card_holders.items())):
        kept = memo[PRINTED_UNITS] = _count_printed(game.rules, None)
    return kept[1]  # type: ignore[no-any-return]


def _count_printed(g: Any, _: None) -> tuple[tuple[tuple[str, str], ...], Counter[tuple[str, str]]]:
    """(who holds which neutral card, the printed counts): see `_printed_units`."""
    printed = Counter({(p, t.id): t.count for p in g.s.players for t in g.content.factions[p].units.values()})
    for card, holder in g.s.card_holders.items():
        t = g.content.neutral_units[g.content.neutral_cards[card].kind]
        printed[(holder, t.id)] += t.count
    return tuple(sorted(g.s.card_holders.items())), printed


PRINTED_UNITS = ("printed-units", None)
MEMO_FACTS[PRINTED_UNITS[0]] = _count_printed


def unit_violations(game: "CheckedGame") -> list[str]:
    """Units are conserved per faction and kind (map + pool + captured + held = the printed count),
    ids are unique, and every unit is somewhere a unit can be. An Independent Great Old One's
    figures are counted by `independent_violations`."""
    s = game.s
    out: list[str] = []
    figures = {rec["kind"] for rec in s.loyalty.values()}
    counts = Counter((u["owner"], u["kind"]) for u in s.units if u["kind"] not in figures)
    printed = _printed_units(game)
    if counts != printed:
        for (p, kind), n in printed.items():
            if counts.get((p, kind), 0) != n:
                out.append(f"{p} has {counts.get((p, kind), 0)} {kind}, the card prints {n}")
        for (owner, kind), n in counts.items():
            if (owner, kind) in printed:
                continue
            if owner not in s.players:
                out.append(f"{n} {kind} belong to '{owner}', who is not playing")
            else:
                out.append(f"{owner} has {n} units of unknown kind '{kind}' (none of its cards prints it)")
    if len({u["id"] for u in s.units}) != len(s.units):
        out.append("two units share an id")
    bad = [loc for loc in {u["loc"] for u in s.units} if not _valid_place(game, loc)]
    for u in s.units:
        if u["loc"] in bad:
            out.append(f"unit #{u['id']} is at an impossible place '{u['loc']}'")
    return out


def independent_violations(game: "CheckedGame", settled: bool = True) -> list[str]:
    """An Independent's figures number what its card prints and lie in the general pool or are
    controlled by a player; its spellbooks stay on the card only while someone controls it. Between
    the events of one awakening or death the figure may be a player's and in the pool for a moment,
    so that is checked only when `settled` (after a decision)."""
    s = game.s
    out: list[str] = []
    for card, rec in s.loyalty.items():
        figs = [u for u in s.units if u["kind"] == rec["kind"]]
        if len(figs) != game.content.loyalty_cards[card].units[rec["kind"]].count:
            out.append(f"Independent '{card}' has {len(figs)} figures")
        for u in figs:
            if (u["owner"] and u["owner"] not in s.players or (u["owner"] == GENERAL and u["loc"] != POOL)
                    or (settled and u["owner"] != GENERAL and u["loc"] == POOL)):
                out.append(f"Independent '{card}' figure #{u['id']} is owned by {u['owner']!r} at {u['loc']}")
        if rec["spellbooks"] and not any(u["owner"] for u in figs):
            out.append(f"Independent '{card}' keeps spellbooks {rec['spellbooks']} in the general pool")
    return out


def _valid_place(game: "CheckedGame", loc: str) -> bool:
    players = game.s.players
    if loc in game.layout.areas or loc == POOL:
        return True
    if loc.startswith("captured:"):
        return loc[9:] in players
    if loc.startswith("held:"):
        return loc.split(":")[1] in players
    return False


def power_violations(game: "CheckedGame") -> list[str]:
    """Power never drops below 0."""
    return [f"{p} has negative Power {v}" for p, v in game.s.power.items() if v < 0]


def gate_violations(game: "CheckedGame", allowed: bool = True) -> list[str]:
    """Gates stand in areas (or are held off the map), one per place (the state keys gates by
    place); each controller stands on its gate, controls only that gate, and (with `allowed`) is
    a unit the rules let control a gate (`Game.can_control`: cultists, and whatever abilities add)."""
    s = game.s
    out: list[str] = []
    by_id = {u["id"]: u for u in s.units}
    seen: dict[int, str] = {}
    for loc, g in s.gates.items():
        if not (basics.is_area(game.rules, loc) or (loc.startswith("held:") and loc.split(":")[1] in s.players)):
            out.append(f"a gate is at an impossible place '{loc}'")
        c = g.get("controller")
        if c is None:
            continue
        if c in seen:
            out.append(f"unit #{c} controls two gates, at {seen[c]} and {loc}")
        seen[c] = loc
        u = by_id.get(c)
        if u is None or u["loc"] != loc:
            out.append(f"the gate at {loc} is controlled by unit #{c}, which is not there")
        elif g.get("locked"):
            out.append(f"the locked gate at {loc} has a controller")
        elif allowed and not core.can_control(game.rules, u):
            out.append(f"unit #{c} ({u['kind']}) controls the gate at {loc} but may not")
    return out


def elder_sign_violations(game: "CheckedGame") -> list[str]:
    """Elder signs are conserved: bag + face down + revealed = the ruleset's printed mix."""
    s = game.s
    mix = game.ruleset.settings.get("elder-signs", DEFAULT_ELDER_SIGNS)
    printed = {int(v): int(n) for v, n in mix.items()}
    total = sum(v * n for v, n in printed.items())
    out = []
    tiles = list(s.es_bag)
    for v in s.elder_signs.values():
        tiles += v
    over = {v: tiles.count(v) - printed.get(v, 0) for v in set(tiles) if tiles.count(v) > printed.get(v, 0)}
    if over:
        out.append(f"elder signs {dict(sorted(over.items()))} exist beyond the printed mix {dict(sorted(printed.items()))}")
    held = sum(tiles) + sum(s.revealed.values())
    if held != total:
        out.append(f"elder signs worth {held} are in the bag, face down or revealed; the printed mix is worth {total}")
    return out


def battle_violations(game: "CheckedGame") -> list[str]:
    """During a battle, results go only to the two sides' units, never more than a unit can take."""
    b = game.s.battle
    if b is None:
        return []
    out: list[str] = []
    by_id = {u["id"]: u for u in game.s.units}
    sides = (b["attacker"], b["defender"])
    for key, res in b["results"].items():
        u = by_id.get(int(key))
        if u is None:
            out.append(f"battle results are held by unit #{key}, which does not exist")
        elif u["owner"] == GENERAL and u["loc"] == POOL:
            # an Independent killed in this battle is back in the general pool with its results; what
            # let it take more of them (its controller's abilities) is no longer its own
            continue
        elif u["owner"] not in sides:
            out.append(f"unit #{key} ({u['owner']}) holds battle results but is on neither side")
        elif len(res) > b["taken"].get(key, 0) or b["taken"].get(key, 0) > battle_queries.capacity(game.rules, u):
            out.append(f"unit #{key} holds {len(res)} results (taken {b['taken'].get(key, 0)}), "
                       f"more than it can take ({battle_queries.capacity(game.rules, u)})")
    for side in sides:
        n = sum(1 for u in by_id.values() if u["owner"] == side)
        if len(b["killed"].get(side, [])) > n:
            out.append(f"{len(b['killed'][side])} of {side}'s units were killed in one battle; it has {n}")
    return out


def cheap_violations(game: "CheckedGame") -> list[str]:
    """The checks run after every logged event: conservation, Power, gates, elder signs."""
    return (unit_violations(game) + independent_violations(game, settled=False) + power_violations(game)
            + gate_violations(game, allowed=False) + elder_sign_violations(game))


def state_violations(game: "CheckedGame") -> list[str]:
    """Every invariant of the current state alone."""
    return (unit_violations(game) + independent_violations(game) + power_violations(game)
            + gate_violations(game) + elder_sign_violations(game) + battle_violations(game))


# ---- checks of the log ----------------------------------------------------------------------------
class LogTally:
    """What the log says so far: Doom gained per player, units removed and retreated per battle."""

    def __init__(self) -> None:
        self.doom: Counter[str] = Counter()
        self.removed: set[int] = set()
        self.retreated: set[int] = set()
        self.in_battle = False
        self.found: list[str] = []

    def add(self, e: dict[str, Any]) -> None:
        t = e["type"]
        if t == "doom":
            self.doom[e["player"]] += e["change"]
        elif t == "battle":
            self.removed, self.retreated, self.in_battle = set(), set(), True
        elif t == "battle-end":
            self.removed, self.retreated, self.in_battle = set(), set(), False
        elif t == "unit" and self.in_battle:
            if e.get("why") == "retreat":
                self.retreated.add(e["unit"])
                if e["unit"] in self.removed:
                    self.found.append(f"unit #{e['unit']} retreated after it was removed in the same battle")
            elif e.get("dst") == POOL and e.get("why") in ("kill", "eliminate"):
                self.removed.add(e["unit"])
                if e["unit"] in self.retreated:
                    self.found.append(f"unit #{e['unit']} was removed after it retreated in the same battle")


def log_violations(game: "CheckedGame") -> list[str]:
    """For a log kept from setup: every Doom point is a logged event, and no unit is both removed
    and retreated in one battle."""
    log = game.log
    if not log or log[0].get("type") != "game":
        return []
    tally = LogTally()
    for e in log:
        tally.add(e)
    out = list(tally.found)
    for p in game.s.players:
        if tally.doom[p] != game.s.doom[p]:
            out.append(f"{p} has {game.s.doom[p]} Doom but the log accounts for {tally.doom[p]}")
    return out


def monotonic_violations(game: "CheckedGame", before: dict[str, Any]) -> list[str]:
    """Doom goes down only by logged losses (an effect's or a cost paid), and the ritual marker
    never goes back."""
    s = game.s
    lost: Counter[str] = Counter()
    for e in game.log[before.get("log", len(game.log)):]:
        if e.get("type") == "doom" and e.get("change", 0) < 0:
            lost[e["player"]] -= e["change"]
    out = [f"{p}'s Doom went down from {before['doom'][p]} to {s.doom[p]}"
           for p in s.players if s.doom[p] < before["doom"].get(p, 0) - lost[p]]
    if s.ritual < before["ritual"]:
        out.append(f"the ritual marker went back from {before['ritual']} to {s.ritual}")
    return out


def snapshot(game: "CheckedGame") -> dict[str, Any]:
    return {"doom": dict(game.s.doom), "ritual": game.s.ritual, "log": len(game.log)}


def violations(game: "CheckedGame", before: dict[str, Any] | None = None) -> list[str]:
    """Every broken invariant now (and, given the previous snapshot, since then)."""
    out = state_violations(game)
    if before is not None:
        out += monotonic_violations(game, before)
    return out + log_violations(game)


# ---- incremental checking ----------------------------------------------------------------------------
class Checker:
    """Checks one game as it is played: the cheap invariants after every logged event (through the
    engine's event hook), every invariant after every decision. `states` counts the checks."""

    def __init__(self, game: "CheckedGame", every_event: bool = True) -> None:
        self.game = game
        n = len(game.log)   # a failed answer puts back a position at least this far on
        self._base_index = n
        self._base_doom: dict[str, int] = dict(game.s.doom)
        self._tally = LogTally()
        self._pos = n
        self._last: dict[str, Any] | None = game.log[n - 1] if n else None
        self._sync()
        self._state = game.s
        self._seen = snapshot(game)
        self._gates = set(game.s.gates)
        self.found: list[str] = []
        self._reported: set[str] = set()
        self.states = 0
        self.events = 0
        if every_event:
            game.set_event_hook(self.on_event)

    def detach(self) -> None:
        self.game.set_event_hook(None)

    def _sync(self) -> None:
        """Bring the log tally up to date (rescanning when a restore truncated the log)."""
        log = self.game.log
        if len(log) < self._pos or (self._pos > self._base_index and log[self._pos - 1] is not self._last):
            self._tally = LogTally()
            self._pos = self._base_index
        for e in log[self._pos:]:
            self._tally.add(e)
        self._pos = len(log)
        self._last = log[-1] if log else None

    def _doom_violations(self) -> list[str]:
        s = self.game.s
        return [f"{p} has {s.doom[p]} Doom but the log accounts for {self._base_doom.get(p, 0) + self._tally.doom[p]}"
                for p in s.players if s.doom[p] != self._base_doom.get(p, 0) + self._tally.doom[p]]

    def _monotonic(self) -> list[str]:
        g = self.game
        if g.s is not self._state:     # the state was restored or replaced: start again from it
            self._state, self._seen, self._gates = g.s, snapshot(g), set(g.s.gates)
            return []
        out = monotonic_violations(g, self._seen)
        self._seen = snapshot(g)
        return out

    def _log_checks(self) -> list[str]:
        self._sync()
        out = list(self._tally.found)
        self._tally.found.clear()
        return out + self._doom_violations()

    def on_event(self, event: dict[str, Any]) -> None:
        """After every logged event: conservation, Power, gates, Doom accounting, monotonic markers."""
        g = self.game
        self.states += 1
        self.events += 1
        bad = cheap_violations(g) + self._log_checks() + self._monotonic()
        if event.get("type") == "gate" and event.get("change") in ("created", "returned") and event.get("loc") in self._gates:
            bad.append(f"a second gate was put in {event['loc']}, which already had one")
        self._gates = set(g.s.gates)
        for v in bad:
            if v not in self._reported:   # a lasting break is reported at the first event that shows it
                self._reported.add(v)
                self.found.append(f"{v} (at event {event.get('seq')} '{event.get('type')}', round {g.s.round})")

    def check(self) -> list[str]:
        """Every invariant now; also returns (and clears) what the event checks found since."""
        g = self.game
        self.states += 1
        bad = self.found + [v for v in state_violations(g) + self._log_checks() + self._monotonic()
                            if v not in self._reported]
        self.found, self._reported = [], set()
        return bad

    def apply(self, answer: str) -> None:
        """apply() and then verify every invariant, raising InvariantError with all violations."""
        self.game.apply(answer)
        bad = self.check()
        if bad:
            shown = "; ".join(dict.fromkeys(bad[:6])) + (f"; ... {len(bad) - 6} more" if len(bad) > 6 else "")
            raise InvariantError(f"{shown} (after '{answer}', round {self.game.s.round})")


def checked_apply(game: "CheckedGame", answer: str) -> None:
    """apply() and then verify every invariant (decision-level only; use a Checker for events)."""
    before = snapshot(game)
    game.apply(answer)
    bad = violations(game, before)
    if bad:
        raise InvariantError("; ".join(bad) + f" (after '{answer}', round {game.s.round})")
