"""Structured options: what each option of a pending decision is, beside its label.

Bots, the RL environment and the web board read `option_info(decision, players, areas)` (or
`Game.option_info()`'s equivalent, `structured(game)`) instead of parsing labels. This is the ONE
place that reads the label grammar; the engine writes labels as follows (the decision's `kind`
first, then the label):

| kind | label | verb and fields |
|---|---|---|
| action | `recruit KIND AREA`, `summon KIND AREA`, `awaken KIND AREA` | verb, unit_kind, area (= dst) |
| action | `create-gate AREA`, `control-gate AREA`, `abandon-gate AREA` | verb, area |
| action | `battle AREA FOE`, `extra-battle AREA FOE`, `capture AREA FOE` | verb, area, player |
| action | `ability ID` or `ability ID AREA` (one action per area it ends in) | ability, area |
| action | `requirement ID` or `requirement ID+ID2` (two met together) | requirement, ability (ID), word (ID2) |
| action | `move`, `pass`, `end-turn`, `decline`, `decline-second-action`, `reveal-elder-signs` | verb |
| move | `KIND SRC->DST#ID`, `done` | move-unit: unit_kind, src, dst, unit |
| unit | `KIND LOC#ID` or `KIND LOC (gate)#ID` (LOC an area, `pool`, `held:...`, `captured:...`), `done` | unit: unit_kind, src, area (if LOC is an area), unit, gate |
| area | `AREA` | area |
| player | `FACTION` | player |
| spellbook | `SPELLBOOK` | spellbook |
| ability | `ABILITY` (offered in a timing window), `done` | ability |
| doom | `ritual`, `ABILITY`, `done` | ritual / ability |
| option | `use ID`, `decline ID` (a battle modifier) | use / decline, ability |
| option | `FACTION` (a tie for first player) | player |
| option | any other word (`clockwise`, `keep`, a content `choose` label) | option, word |
| secret | a face-down pick (`1` .. `6`) | pick, value (a number) or word |

`cost` is the Power the decision's context lists for the option (actions, unit moves, the Doom
Phase's ritual), else None. An option the grammar cannot place raises `UnclassifiedOption`
(tests play seeded games of every ruleset and check that none is left unclassified).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterable

from .decisions import Decision

__all__ = ["OptionInfo", "UnclassifiedOption", "VERBS", "option_info", "structured"]

# every verb an option can have, in a fixed order (the RL encoding's indices follow it)
VERBS = ("recruit", "summon", "awaken", "create-gate", "control-gate", "abandon-gate", "battle", "extra-battle",
         "capture", "ability", "requirement", "move", "pass", "end-turn", "decline", "decline-second-action",
         "reveal-elder-signs", "move-unit", "unit", "area", "player", "spellbook", "ritual", "use", "option",
         "pick", "done")
_PLACE = ("recruit", "summon", "awaken")
_AT = ("create-gate", "control-gate", "abandon-gate")
_VERSUS = ("battle", "extra-battle", "capture")
_BARE = ("move", "pass", "end-turn", "decline", "decline-second-action", "reveal-elder-signs")


class UnclassifiedOption(ValueError):
    """An option whose label the grammar above does not describe (a new label form: add it here)."""


@dataclass(frozen=True)
class OptionInfo:
    """What one option is. Fields that do not apply are None (`gate` False)."""

    label: str
    verb: str
    unit_kind: str | None = None
    unit: int | None = None          # the unit's id
    src: str | None = None           # where the unit is (an area, pool, held:..., captured:...)
    dst: str | None = None           # where a unit goes (a move; the area a unit is recruited/summoned/awakened in)
    area: str | None = None          # the area the option acts in or names
    ability: str | None = None       # an ability id (a requirement's id for `requirement`)
    player: str | None = None        # a player the option names (a battle's foe, a pick among players)
    spellbook: str | None = None
    cost: int | None = None          # Power, when the decision lists it
    value: int | None = None         # a number picked (a secret die face)
    word: str | None = None          # the word picked (`option`, a non-numeric `pick`)
    gate: bool = False               # the unit controls the Gate where it stands

    def as_json(self) -> dict[str, Any]:
        """The fields that apply, as plain data."""
        return {k: v for k, v in asdict(self).items() if v is not None and v is not False}


def structured(game: Any) -> list[OptionInfo]:
    """The pending decision's options, each with what it is ([] when the game is over)."""
    d = game.current()
    if d is None:
        return []
    return option_info(d, game.s.players, game.layout.areas)


# What options were found to be, by everything that says it (kind, label, cost, players, areas):
# a bot classifies every option of every decision, and most labels come back decision after
# decision. OptionInfo is frozen, so one instance serves every caller. Cleared when full (checked
# before each call, so a call may add its options beyond the bound); the sets of players and
# areas in the keys are one object per distinct set (`_SETS`), so a full table holds a few sets,
# not one per call.
_KNOWN: dict[tuple[Any, ...], "OptionInfo"] = {}
_SETS: dict[frozenset[str], frozenset[str]] = {}
_KNOWN_MAX = 20_000


def option_info(d: Decision, players: Iterable[str], areas: Iterable[str]) -> list[OptionInfo]:
    """What each of `d`'s options is (`players`: the factions at the table; `areas`: the map's)."""
    if len(_KNOWN) >= _KNOWN_MAX or len(_SETS) >= 64:
        _KNOWN.clear()
        _SETS.clear()
    ps, ars = frozenset(players), frozenset(areas)
    ps, ars = _SETS.setdefault(ps, ps), _SETS.setdefault(ars, ars)
    costs = d.context.get("costs") if isinstance(d.context.get("costs"), dict) else {}
    kind = d.kind
    known = _KNOWN
    out = []
    for label in d.options:
        c = costs.get(label)
        cost = None if c is None else int(c)
        key = (kind, label, cost, ps, ars)
        info = known.get(key)
        if info is None:
            info = _classify(kind, label, ps, ars)
            if cost is not None:
                object.__setattr__(info, "cost", cost)   # a fresh instance, not yet seen by anyone
            known[key] = info
        out.append(info)
    return out


def _classify(kind: str, label: str, players: frozenset[str], areas: frozenset[str]) -> OptionInfo:
    def bad(why: str) -> UnclassifiedOption:
        return UnclassifiedOption(f"a '{kind}' option '{label}': {why}")

    if label == "done" and kind in ("move", "unit", "ability", "doom"):
        return OptionInfo(label, "done")
    words = label.split()
    if kind == "action":
        verb, args = words[0], words[1:]
        if verb in _PLACE and len(args) == 2:
            return OptionInfo(label, verb, unit_kind=args[0], area=args[1], dst=args[1])
        if verb in _AT and len(args) == 1:
            return OptionInfo(label, verb, area=args[0])
        if verb in _VERSUS and len(args) == 2:
            return OptionInfo(label, verb, area=args[0], player=args[1])
        if verb == "ability" and len(args) in (1, 2):
            return OptionInfo(label, verb, ability=args[0], area=args[1] if len(args) == 2 else None)
        if verb == "requirement" and len(args) == 1:
            first, _, second = args[0].partition("+")
            return OptionInfo(label, verb, ability=first, word=second or None)
        if verb in _BARE and not args:
            return OptionInfo(label, verb)
        raise bad("no action of this form")
    if kind == "move":
        unit_kind, place, uid = _unit_parts(kind, label)
        if "->" not in place:
            raise bad("a unit move is 'KIND SRC->DST#ID'")
        src, dst = place.split("->", 1)
        return OptionInfo(label, "move-unit", unit_kind=unit_kind, unit=uid, src=src, dst=dst)
    if kind == "unit":
        unit_kind, place, uid = _unit_parts(kind, label)
        gate = place.endswith(" (gate)")
        loc = place[:-len(" (gate)")] if gate else place
        return OptionInfo(label, "unit", unit_kind=unit_kind, unit=uid, src=loc,
                          area=loc if loc in areas else None, gate=gate)
    if kind == "area" and len(words) == 1:
        return OptionInfo(label, "area", area=label)
    if kind == "player" and label in players:
        return OptionInfo(label, "player", player=label)
    if kind == "spellbook" and len(words) == 1:
        return OptionInfo(label, "spellbook", spellbook=label)
    if kind == "ability" and len(words) == 1:
        return OptionInfo(label, "ability", ability=label)
    if kind == "doom" and len(words) == 1:
        return OptionInfo(label, "ritual") if label == "ritual" else OptionInfo(label, "ability", ability=label)
    if kind == "option":
        if len(words) == 2 and words[0] in ("use", "decline"):
            return OptionInfo(label, words[0], ability=words[1])
        if label in players:
            return OptionInfo(label, "player", player=label)
        if len(words) == 1:
            return OptionInfo(label, "option", word=label)
    if kind == "secret" and len(words) == 1:
        try:
            return OptionInfo(label, "pick", value=int(label))
        except ValueError:
            return OptionInfo(label, "pick", word=label)
    raise bad("no option of this form")


def _unit_parts(kind_of_decision: str, label: str) -> tuple[str, str, int]:
    """`KIND PLACE#ID` -> (kind, place, id)."""
    head, sep, uid = label.rpartition("#")
    kind, space, place = head.partition(" ")
    if not sep or not space or not uid.isdigit():
        raise UnclassifiedOption(f"a '{kind_of_decision}' option '{label}': a unit is 'KIND PLACE#ID'")
    return kind, place, int(uid)
