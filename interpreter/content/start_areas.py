"""Load-time checks that a faction can play: that it can be placed, and that it can win by spellbooks.

Placement: a game starts with each faction choosing one of its
start areas on the layout: a faction that no area of a complete layout names in `starts:` cannot
play there. A faction that can play on no layout at all is a warning at the faction; a ruleset
that seats a faction by default on a layout without its start area cannot start its own default
game, an error at the ruleset's entry naming the layout's place. (A faction absent from some
layouts only, like a modder's faction that brings its own map, is a choice, not a finding.)"""
from __future__ import annotations

from ..diagnostics import Pos, Report
from .files import Document
from .model import ContentModel


def check_start_areas(model: ContentModel, report: Report, layouts_at: dict[str, Pos],
                      rulesets: list[Document]) -> None:
    """`layouts_at`: where each layout's id is written; `rulesets`: the ruleset documents loaded."""
    starts = {lid: {f for a in lay.areas.values() for f in a.starts}
              for lid, lay in model.layouts.items() if not lay.incomplete}
    for fid, faction in sorted(model.factions.items()):
        if starts and not faction.setup.get("start-anywhere") and not any(fid in have for have in starts.values()):
            report.warning(faction.pos, "no-start-area",
                           f"faction '{fid}' has no start area on any map layout ({', '.join(sorted(starts))}): "
                           "it cannot play (an area's `starts:` must name it)")
    for doc in rulesets:
        ruleset = model.rulesets.get(doc.id or "")
        if ruleset is None:
            continue
        for count, factions in (doc.data.get("default-factions") or {}).items():
            lid = (ruleset.settings.get("map") or {}).get(str(count))
            if lid not in starts:
                continue   # an unknown or incomplete layout has its own finding
            at = layouts_at[lid]
            for j, f in enumerate(factions):
                if f in model.factions and f not in starts[lid] and not model.factions[f].setup.get("start-anywhere"):
                    report.error(doc.pos("default-factions", count, j), "no-start-area",
                                 f"ruleset '{doc.id}' seats faction '{f}' on layout '{lid}' for {count} players, "
                                 f"but no area of that layout ({at.path}:{at.line}:{at.col}) is a start area "
                                 "for it: the ruleset's default game cannot start")


def six_spellbooks(model: ContentModel, report: Report) -> None:
    """A faction that can never hold six spellbooks is a warning: each one is taken on earning a
    requirement, from the faction's own or (with an expansion) the neutral spellbooks."""
    neutral = len(model.neutral_spellbooks)
    for f in model.factions.values():
        if len(f.requirements) < 6 or len(f.spellbooks) + neutral < 6:
            why = f"{len(f.requirements)} requirement(s)" if len(f.requirements) < 6 else \
                f"{len(f.spellbooks)} spellbook(s)" + (f" and {neutral} neutral spellbook(s)" if neutral else "")
            report.warning(f.pos, "six-spellbooks", f"faction '{f.id}' can never hold six spellbooks: it has {why}")
