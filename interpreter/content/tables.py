"""Facts of the content alone, found once when it is built (`build.Builder.run`) and never
changed: immutable lookup tables the engine reads instead of working them out per game. They
are no game-state cache (the position cannot change them); the one cache of facts derived from
the position is the rules context's memo (engine/rules.py `Rules.memo`)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

from ..effects.compiler import RuleError
from ..effects.listed_choices import reads_of_texts, sound
from ..effects.primitive_facts import MODIFIER_HOLDERS, QUIET_VERBS, REMOVAL_WINDOW
from ..effects.program import Program
from ..effects.signatures import REGISTRY
from .requirement_links import Seeking, links_of

if TYPE_CHECKING:
    from .model import Ability, ContentModel, Requirement, Ruleset, UnitType


def checked_at(r: "Requirement", when: str) -> bool:
    """Whether `r`'s condition is checked at `when` (a window, "state" or "doom-phase"). An action
    requirement with a condition is met either way ("X, or pay N as your action"), so it is
    checked with the state's; one without a condition (or an illegible one) never is."""
    return r.condition is not None and (r.when == when or (when == "state" and r.when == "action"))


@dataclass(frozen=True)
class ContentTables:
    """`ability_by_key`: every ability of a faction, unit, spellbook, loyalty or neutral card, by
    key (a later one with the same key wins, as `ability_frame` then reports). `checked_when`:
    per faction, each moment (`checked_at`) at which some requirement of its is checked -> the
    positions in its requirements of those checked then.
    `timed_windows`: per ruleset, the windows its rules or any requirement (a faction's or a
    loyalty card's, in play or not) are timed at, with "state" and "action". `quiet_removals`:
    per ruleset, whether every ability of the REMOVAL_WINDOW in the content and that ruleset
    calls only queries, choices and QUIET_VERBS (removing a unit then moves no other unit).
    `programs`: every compiled effect program of the content by its key (its content position),
    by which an effect frame names the program it runs (engine/effect_frames.py). `seeking`: per
    faction, which of its action abilities may earn which of its requirements (requirement_links.py,
    for the bots: engine/seeking.py). `unit_types`: per owner a unit may have (every faction, and
    "", the general pool's), each unit kind it may hold -> its type, as engine/basics.py `utype`
    finds it (the owner's faction's kinds first, then the neutral units', then the loyalty cards'
    in their order): one lookup where `utype` scanned the content; plain dicts, never changed (a
    mapping proxy costs each of the engine's reads twice the time of a dict's). `unit_classes`: the
    same, each kind -> its type's class (cultist, monster, ...; engine/basics.py `uclass`), plain dicts. `modifier_targets`:
    per ruleset, the target of every modifier of an ability the content holds (in play or not, one
    a later key hides included) or of that ruleset's rules: a target outside it has no modifier in
    any game of the content (engine/actions.py `unit_gates` asks no memo then); a plain dict, as
    `unit_types`. `action_requirements`: per faction, (its requirements met by taking an action
    that is not an Unlimited Action, those met by one that is), each in their order (the
    requirement-action listing's candidates); a plain dict. `listed_programs`: the keys of the
    programs whose listed choice (effects/listed_choices.py) the engine may decide at listing time:
    what the content's unit costs read (`unit_cost_reads`) is disjoint from what the statements
    before the choice write."""

    ability_by_key: Mapping[str, "Ability"]
    checked_when: Mapping[str, Mapping[str, tuple[int, ...]]]
    timed_windows: Mapping[str, frozenset[str]]
    quiet_removals: Mapping[str, bool]
    programs: Mapping[str, Program]
    seeking: Mapping[str, Seeking]
    unit_types: Mapping[str, Mapping[str, "UnitType"]]
    modifier_targets: Mapping[str, frozenset[str]]
    action_requirements: Mapping[str, tuple[tuple["Requirement", ...], tuple["Requirement", ...]]]
    listed_programs: frozenset[str] = frozenset()
    unit_classes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


def _moments(requirements: tuple["Requirement", ...]) -> Mapping[str, tuple[int, ...]]:
    moments = {when for r in requirements for when in (r.when, "state") if checked_at(r, when)}
    return MappingProxyType({when: tuple(j for j, r in enumerate(requirements) if checked_at(r, when))
                             for when in sorted(moments)})


def _held_abilities(model: "ContentModel") -> list["Ability"]:
    """Every ability of a faction, unit, spellbook, loyalty or neutral card, in the index's order
    (two with one key both listed)."""
    out: list[Ability] = []
    for f in list(model.factions.values()) + list(model.loyalty_cards.values()):
        out.extend(f.abilities)
        for t in f.units.values():
            out.extend(t.abilities)
        for sb in f.spellbooks.values():
            out.extend(sb.abilities)
    for sb in model.neutral_spellbooks.values():
        out.extend(sb.abilities)
    for card in model.neutral_cards.values():
        unit = model.neutral_units.get(card.kind)
        for a in (card.acquire, *card.abilities, *(unit.abilities if unit is not None else ())):
            if a is not None:
                out.append(a)
    return out


def _ability_index(model: "ContentModel") -> dict[str, "Ability"]:
    return {a.key: a for a in _held_abilities(model)}   # (a later one with the same key wins)


def _modifier_targets(model: "ContentModel") -> dict[str, frozenset[str]]:
    """ContentTables.modifier_targets: per ruleset, every modifier's target its games can have."""
    held = [*_held_abilities(model), *(a for t in model.neutral_units.values() for a in t.abilities)]
    content = {m.target for a in held for m in a.modifiers}
    return {rid: frozenset(content | {m.target for a in rs.abilities for m in a.modifiers})
            for rid, rs in model.rulesets.items()}


def _quiet(effect: Any) -> bool:
    if effect is None:
        return True
    calls = getattr(effect, "calls", None)
    if calls is None:
        return False
    for name in calls:
        prim = REGISTRY.get(name)
        if prim is None or (prim.sort == "verb" and name not in QUIET_VERBS):
            return False
    return True


def _collect_programs(obj: Any, index: dict[str, Program], seen: set[int]) -> None:
    """Every Program reachable from `obj` (records, lists, dicts), into `index` by key."""
    if isinstance(obj, Program):
        if index.setdefault(obj.key, obj) is not obj:
            raise RuleError(f"internal: two effect programs are keyed {obj.key!r}")
        return
    if isinstance(obj, (str, int, float, type(None))) or id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, dict):
        for v in obj.values():
            _collect_programs(v, index, seen)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _collect_programs(v, index, seen)
    elif is_dataclass(obj) and not isinstance(obj, type):
        for fl in fields(obj):
            _collect_programs(getattr(obj, fl.name), index, seen)


def content_abilities(model: "ContentModel", ruleset: "Ruleset") -> list["Ability"]:
    """Every ability the content holds (factions, units, spellbooks, cards) and `ruleset`'s rules,
    in play or not."""
    return [*model.tables.ability_by_key.values(), *ruleset.abilities,
            *(a for t in model.neutral_units.values() for a in t.abilities)]


def _unit_types(model: "ContentModel") -> dict[str, dict[str, "UnitType"]]:
    """ContentTables.unit_types: for the general pool's owner ("") the kinds that are not a
    faction's, for each faction its own kinds over those."""
    others: dict[str, UnitType] = dict(model.neutral_units)
    for card in model.loyalty_cards.values():
        for kind, t in card.units.items():
            others.setdefault(kind, t)
    return {"": others, **{fid: {**others, **f.units} for fid, f in model.factions.items()}}


def build_tables(model: "ContentModel", cost_texts: list[Any] | None = None) -> ContentTables:
    """The tables of a built content model (see ContentTables); `cost_texts`: every unit cost
    formula and cost modifier's `when` and value as the content writes them (None: unknown)."""
    index = _ability_index(model)
    checked = {fid: _moments(f.requirements) for fid, f in model.factions.items()}
    required = {r.when for f in [*model.factions.values(), *model.loyalty_cards.values()] for r in f.requirements}
    timed = {rid: frozenset({ab.window for ab in rs.abilities} | {"state", "action"} | required)
             for rid, rs in model.rulesets.items()}
    outside = [*index.values(), *(a for t in model.neutral_units.values() for a in t.abilities)]
    quiet_content = all(_quiet(a.effect) for a in outside if a.window == REMOVAL_WINDOW)
    quiet = {rid: quiet_content and all(_quiet(a.effect) for a in rs.abilities if a.window == REMOVAL_WINDOW)
             for rid, rs in model.rulesets.items()}
    programs: dict[str, Program] = {}
    _collect_programs(model, programs, set())
    types = _unit_types(model)
    return ContentTables(MappingProxyType(index), MappingProxyType(checked), MappingProxyType(timed),
                         MappingProxyType(quiet), MappingProxyType(programs),
                         MappingProxyType({fid: links_of(f) for fid, f in model.factions.items()}),
                         types, _modifier_targets(model),
                         {fid: (tuple(r for r in f.requirements if r.when == "action" and r.action_unlimited == False),  # noqa: E712
                                tuple(r for r in f.requirements if r.when == "action" and r.action_unlimited == True))  # noqa: E712
                          for fid, f in model.factions.items()},
                         _listed_programs(programs, cost_texts),
                         {owner: {kind: t.cls for kind, t in kinds.items()} for owner, kinds in types.items()})


def _listed_programs(programs: dict[str, Program], cost_texts: list[Any] | None) -> frozenset[str]:
    """ContentTables.listed_programs: a unit's cost reads its cost formula's and its cost modifiers'
    parts, and what decides which modifiers hold (MODIFIER_HOLDERS); the same for every ruleset (the
    texts of all of them are read)."""
    reads = reads_of_texts(cost_texts) if cost_texts is not None else None
    if reads is not None:
        reads = reads | frozenset(MODIFIER_HOLDERS)
    return frozenset(key for key, prog in programs.items()
                     if prog.listed is not None and sound(prog.listed[1:], reads))


__all__ = ["ContentTables", "build_tables", "checked_at", "content_abilities"]
