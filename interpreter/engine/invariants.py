"""Invariants that hold after every decision, whatever the content: checked in `--check` mode."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game


class InvariantError(Exception):
    """An invariant was broken; the message lists every violation."""


def violations(game: "Game", before: dict[str, Any] | None = None) -> list[str]:
    """Every broken invariant now (and, given the previous snapshot, since then)."""
    s = game.s
    out: list[str] = []
    # units are conserved: each faction keeps exactly its printed count of each kind
    counts = Counter((u["owner"], u["kind"]) for u in s.units)
    for p in s.players:
        for t in game.content.factions[p].units.values():
            if counts.get((p, t.id), 0) != t.count:
                out.append(f"{p} has {counts.get((p, t.id), 0)} {t.id}, the card prints {t.count}")
    ids = [u["id"] for u in s.units]
    if len(ids) != len(set(ids)):
        out.append("two units share an id")
    for u in s.units:
        loc = u["loc"]
        if not (game.is_area(loc) or loc == "pool" or (loc.startswith("captured:") and loc[9:] in s.players)
                or (loc.startswith("held:") and loc.split(":")[1] in s.players)):
            out.append(f"unit #{u['id']} is at an impossible place '{loc}'")
    for p in s.players:
        if s.power[p] < 0:
            out.append(f"{p} has negative Power {s.power[p]}")
    # gates: controllers stand on their gate and may control it
    by_id = {u["id"]: u for u in s.units}
    for loc, g in s.gates.items():
        c = g.get("controller")
        if c is None:
            continue
        u = by_id.get(c)
        if u is None or u["loc"] != loc:
            out.append(f"the gate at {loc} is controlled by unit #{c}, which is not there")
        elif g.get("locked"):
            out.append(f"the locked gate at {loc} has a controller")
        elif not game.can_control(u):
            out.append(f"unit #{c} ({u['kind']}) controls the gate at {loc} but may not")
    # elder signs: bag + face down + revealed = the ruleset's mix (or fewer, once the bag ran dry)
    mix = game.ruleset.get("elder-signs", {"1": 18, "2": 12, "3": 6})
    total = sum(int(v) * int(n) for v, n in mix.items())
    held = sum(s.es_bag) + sum(sum(v) for v in s.elder_signs.values()) + sum(s.revealed.values())
    if held > total:
        out.append(f"elder signs worth {held} exist; the bag held {total}")
    if before is not None:
        for p in s.players:
            if s.doom[p] < before["doom"][p]:
                out.append(f"{p}'s Doom went down from {before['doom'][p]} to {s.doom[p]}")
        if s.ritual < before["ritual"]:
            out.append(f"the ritual marker went back from {before['ritual']} to {s.ritual}")
    log = game.log
    if log and log[0].get("type") == "game":   # a whole log from setup: every Doom point is an event
        logged = Counter()
        for e in log:
            if e["type"] == "doom":
                logged[e["player"]] += e["change"]
        for p in s.players:
            if logged[p] != s.doom[p]:
                out.append(f"{p} has {s.doom[p]} Doom but the log accounts for {logged[p]}")
        out.extend(_battle_log_violations(log))
    b = s.battle
    if b is not None:
        for key, res in b["results"].items():
            u = by_id.get(int(key))
            if u is not None and len(res) > game.capacity(u):
                out.append(f"unit #{key} holds {len(res)} results, more than it can take")
    return out


def _battle_log_violations(log: list[dict[str, Any]]) -> list[str]:
    """No unit is both removed (killed or eliminated) and retreated in one battle."""
    out: list[str] = []
    removed: set[int] = set()
    retreated: set[int] = set()
    in_battle = False
    for e in log:
        t = e["type"]
        if t == "battle":
            in_battle, removed, retreated = True, set(), set()
        elif t == "battle-end":
            both = removed & retreated
            if both:
                out.append(f"units {sorted(both)} were both removed and retreated in one battle")
            in_battle = False
        elif in_battle and t == "unit":
            if e.get("why") == "retreat":
                retreated.add(e["unit"])
            elif e.get("dst") == "pool" and e.get("why") in ("kill", "eliminate"):
                removed.add(e["unit"])
    return out


def checked_apply(game: "Game", answer: str) -> None:
    """apply() and then verify every invariant, raising InvariantError with all violations."""
    before = {"doom": dict(game.s.doom), "ritual": game.s.ritual}
    game.apply(answer)
    bad = violations(game, before)
    if bad:
        raise InvariantError("; ".join(bad) + f" (after '{answer}', round {game.s.round})")
