"""The compiled content model: frozen records the engine reads. Effects are already callables."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable

from ..diagnostics import Pos

Ev = Callable[[Any], Any]


@dataclass(frozen=True)
class Modifier:
    target: str
    when: Ev | None
    value: Ev
    source: str  # ability key
    pos: Pos
    # the leading conjuncts of `when` that compare a subject field with `me` or a literal, as
    # (field, "==" | "!=", value; ME for `me`): tested on the subject before `when` is run
    # (effects/subject_guards.py)
    guards: tuple[tuple[str, str, Any], ...] = ()
    # what `when` and `value` read together: ast.expression_inputs with ast.call_arguments (as
    # Requirement.inputs), None when not known (engine/kept_costs.py)
    inputs: Any = None


@dataclass(frozen=True)
class Ability:
    """Something content can do: an action, a triggered effect or a static modifier."""

    key: str  # globally unique: "<owner>/<id>"
    id: str
    name: str
    owner: str  # faction id, or "" for ruleset/neutral abilities
    holder: str  # "faction" | "unit:<kind>" | "spellbook:<id>" | "ruleset" | "neutral:<id>"
    window: str
    cost: Ev | None
    condition: Ev | None
    effect: Any  # compiled program (effects/program.py), run as an effect frame
    optional: bool
    once: str | None
    anywhere: bool
    modifiers: tuple[Modifier, ...]
    text: str
    pos: Pos
    unknown: str | None = None
    # an action ability that ends in an area: the areas it may end in (one action offered per area,
    # its cost modified for that area, the area bound as `area` in the effect)
    where: Ev | None = None
    # a rule's bookkeeping (a tally, say), not an ability on the card: never shown to players as one
    bookkeeping: bool = False


@dataclass(frozen=True)
class Awaken:
    condition: Ev | None
    where: Ev
    effect: Any
    replace_gate: bool
    text: str


@dataclass(frozen=True)
class UnitType:
    faction: str
    id: str
    name: str
    cls: str  # cultist | monster | terror | great-old-one
    count: int
    cost: Ev
    cost_options: tuple[int, ...] | None  # every cost the unit can have (for Doom at average cost)
    combat: Ev
    abilities: tuple[Ability, ...]
    awaken: Awaken | None
    pos: Pos
    unknown: tuple[str, ...] = ()


@dataclass(frozen=True)
class Requirement:
    key: str
    id: str
    text: str
    when: str  # "state" | window | "action"
    condition: Ev | None
    action_cost: Ev | None
    action_condition: Ev | None
    action_effect: Any
    action_unlimited: bool
    effect: Any
    together: tuple[str, ...]
    pos: Pos
    inputs: Any = None   # the condition's ast.expression_inputs (engine/held_conditions.py)
    # the literals the condition passes to calls, (call, parameter, value) (ast.literal_arguments; engine/seeking.py)
    literals: frozenset[tuple[str, str, object]] = frozenset()
    # a state condition's distance from holding (effects/progress.py; engine/seeking.py), else None
    progress: Any = None


@dataclass(frozen=True)
class Spellbook:
    key: str
    id: str
    name: str
    owner: str
    text: str
    abilities: tuple[Ability, ...]
    pos: Pos
    unknown: str | None = None


@dataclass(frozen=True)
class Faction:
    id: str
    name: str
    setup: dict[str, Any]
    abilities: tuple[Ability, ...]
    units: dict[str, UnitType]
    requirements: tuple[Requirement, ...]
    spellbooks: dict[str, Spellbook]
    tokens: dict[str, int]
    pos: Pos
    expansion: str | None = None
    colour: str | None = None  # '#rrggbb' for every picture of the faction

    @cached_property
    def goos(self) -> list[UnitType]:
        """The faction's Great Old Ones, in the order of its units (found once, as the engine's
        Awaken listing asks at every main listing: shared, do not change it)."""
        return [u for u in self.units.values() if u.cls == "great-old-one"]


@dataclass(frozen=True)
class NeutralCard:
    """A neutral monster's loyalty card: the action that takes it, and what its holder gets."""

    id: str
    name: str
    kind: str  # the unit kind the card brings (count units join the holder's pool)
    acquire: Ability | None  # an action offered while no one holds the card
    abilities: tuple[Ability, ...]  # active for the holder whether or not the units are in play
    unknown: tuple[str, ...]  # reasons the card cannot be played (unknown values with no interpretation)
    pos: Pos


@dataclass(frozen=True)
class Area:
    id: str
    name: str
    ocean: bool
    glyph: str | None
    starts: tuple[str, ...]
    symbols: tuple[str, ...]
    position: tuple[float, float] | None = None  # where it is drawn (x east, y south), in the map's own units
    shape: tuple[tuple[float, float], ...] | None = None  # an optional outline polygon, same units


@dataclass(frozen=True)
class Layout:
    id: str
    map: str
    name: str
    players: tuple[int, ...]
    areas: dict[str, Area]
    adjacent: dict[str, tuple[str, ...]]
    incomplete: str | None
    recommended: bool
    drawing: dict[str, Any] | None = None  # the map's {width, height, wrap}: the box positions are given in


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    settings: dict[str, Any]
    abilities: tuple[Ability, ...]
    pos: Pos

    def get(self, key: str, default: Any = None) -> Any:
        return self.settings.get(key, default)


@dataclass
class ContentModel:
    factions: dict[str, Faction] = field(default_factory=dict)
    layouts: dict[str, Layout] = field(default_factory=dict)
    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    neutral_units: dict[str, UnitType] = field(default_factory=dict)
    neutral_spellbooks: dict[str, Spellbook] = field(default_factory=dict)
    neutral_cards: dict[str, NeutralCard] = field(default_factory=dict)
    loyalty_cards: dict[str, Faction] = field(default_factory=dict)
    # per loyalty card: values recorded as unknown with no interpretation (a game refuses the card)
    loyalty_unknowns: dict[str, tuple[str, ...]] = field(default_factory=dict)
    loyalty_counterparts: dict[str, str] = field(default_factory=dict)  # card -> faction it reuses
    tokens: dict[str, int] = field(default_factory=dict)
    expansions: set[str] = field(default_factory=set)
    # facts of this content alone, found once as it is built: a content/tables.py ContentTables
    # (immutable; typed Any here, as tables.py reads this module)
    tables: Any = None

    def sharing_figures(self, factions: "list[str] | tuple[str, ...]") -> tuple[str, str] | None:
        """The first two of `factions` played with the same figures (either names the other in its
        setup's `shares-figures-with`), or None: a game seats at most one of them."""
        for i, a in enumerate(factions):
            for b in factions[i + 1:]:
                fa, fb = self.factions.get(a), self.factions.get(b)
                if (fa is not None and b in fa.setup.get("shares-figures-with", ())) or \
                        (fb is not None and a in fb.setup.get("shares-figures-with", ())):
                    return a, b
        return None
