"""Company for an ability that counts units, for bots (the heuristic bot's `company`,
engine/agents.py). A serving ability (engine/seeking.py: an action ability that may earn an unmet
requirement) whose effect counts units (it calls `units(...)`: a roll no higher than the units in
its area, say) may do better with more of the player's units beside its holder. Read from the
content alone: the abilities' links and the calls their compiled effects make.

An area *wants company* where a holder of such an ability stands, its ability would earn an unmet
requirement there (`Trial.earns_at`), and the player has fewer than `COMPANY` units there (the
holder counted). While one does:
- another unit's move into it scores 6 more (`joins`);
- the Move action scores as the seeking Move (35) when a unit of the player's stands next to it
  (`join_step`);
- the ability itself there scores just below that Move while such a unit stands next to it
  (`waits_for_company`), and as a requirement's action once none does or the company is there.
"""
from __future__ import annotations

from typing import Any

from . import basics
from .seeking import Trial, seeking_of, serves_unmet

__all__ = ["COMPANY", "wanting", "joins", "join_step", "waits_for_company"]

COMPANY = 3   # the units (the holder counted) an area wants before its ability is used


def _counting(g: Any, player: str) -> dict[str, frozenset[str]]:
    """Unit kind -> the abilities its units hold that serve an unmet requirement and count units."""
    faction = g.content.factions.get(player)
    if faction is None:
        return {}
    out = {}
    for kind, ids in seeking_of(g, player).holders.items():
        unit = faction.units.get(kind)
        if unit is None:
            continue
        counting = frozenset(a.id for a in unit.abilities if a.id in ids and "units" in getattr(a.effect, "calls", ())
                             and serves_unmet(g, player, a.id))
        if counting:
            out[kind] = counting
    return out


def wanting(trial: Trial) -> dict[str, str]:
    """The areas that want company (see the module), each with the ability that would be used
    there (worked out once per decision, kept on the trial)."""
    found = trial.memo.get("company")
    if found is None:
        g, player = trial.g, trial.player
        found = {}
        kinds = _counting(g, player)
        if kinds:
            mine = basics.units_per_place(g.rules, player)
            for u in g.s.on_map(player):
                here = u["loc"]
                if here in found or mine.get(here, 0) >= COMPANY:
                    continue
                ability = next((a for a in sorted(kinds.get(u["kind"], ())) if trial.earns_at(a, here)), None)
                if ability is not None:
                    found[here] = ability
        trial.memo["company"] = found
    return found  # type: ignore[no-any-return]


def joins(trial: Trial, src: str | None, dst: str | None) -> bool:
    """Whether a unit's move from `src` to `dst` brings company to an area that wants it."""
    return dst is not None and src != dst and dst in wanting(trial)


def _neighbours_in(trial: Trial, area: str) -> bool:
    """Whether a unit of the player's stands next to `area`."""
    g = trial.g
    near = g.layout.adjacent.get(area, ())
    return any(u["loc"] in near for u in g.s.on_map(trial.player))


def join_step(trial: Trial) -> bool:
    """Whether a unit of the player's stands next to an area that wants company."""
    return any(_neighbours_in(trial, a) for a in sorted(wanting(trial)))


def waits_for_company(trial: Trial, ability: str | None, area: str | None) -> bool:
    """Whether using `ability` in `area` should wait for a unit next to it to join."""
    return area is not None and wanting(trial).get(area) == ability and _neighbours_in(trial, area)
