"""An option as a record, and its label: the ONE module that makes option labels and reads them back.

An `Option` says what a choice is (its verb, unit, areas, ability, player, cost ...). The action
listing produces them, the engine performs them by their fields, bots and the RL encoding read
them. A label is the option's text for logs, saves, the CLI, the web API and scenario files:
`label_of(option)` makes it and `parse(kind, label)` reads it back; no other module splits or
matches labels (`tests/test_option_labels.py` checks it). Labels are byte-identical to those
of save format 3 and log format 2. The decision's `kind` comes first, then the label:

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

`cost` is the Power the option costs (the listing's, or the decision's context), else None; it
is not part of the label. A label of no form above raises `UnclassifiedOption`.

The state still holds labels where it holds answers: the pending decision's options (and its
`costs`, by label) and the frames of the rule flow that remember what they offered (a Turn's
`mains`, a Perform's `label`), as saves of format 3 hold them. A procedure reads such a label back
with `parse` and works on the record's fields.
"""
from __future__ import annotations

from typing import Any, Iterable

from .option_record import FIELDS, Record, fill, keep_label

__all__ = ["Option", "UnclassifiedOption", "VERBS", "action", "action_verb", "is_done", "label_of", "labelled_move",
           "labelled_moves", "match_option", "move", "move_label", "options_starting",
           "parse", "parse_answer", "unit_label", "unit_of_label", "with_cost", "without_unit_id"]

# every verb an option can have, in a fixed order (the RL encoding's indices follow it)
VERBS = ("recruit", "summon", "awaken", "create-gate", "control-gate", "abandon-gate", "battle", "extra-battle",
         "capture", "ability", "requirement", "move", "pass", "end-turn", "decline", "decline-second-action",
         "reveal-elder-signs", "move-unit", "unit", "area", "player", "spellbook", "ritual", "use", "option",
         "pick", "done")
PLACE = ("recruit", "summon", "awaken")
AT = ("create-gate", "control-gate", "abandon-gate")
VERSUS = ("battle", "extra-battle", "capture")
BARE = ("move", "pass", "end-turn", "decline", "decline-second-action", "reveal-elder-signs")
_GATE = " (gate)"


class UnclassifiedOption(ValueError):
    """A label of no form in the table above (a new label form: add it here)."""


class Option(Record):
    """What one option is: the decision `kind` it answers, its `verb`, and the fields that apply
    (None otherwise; `gate` False): `unit_kind`, `unit` (the unit's id), `src` (where the unit is: an
    area, pool, held:..., captured:...), `dst` (where it goes: a move; the area a unit is placed in),
    `area` (the area the option acts in or names), `ability` (a requirement's id for `requirement`),
    `player` (a battle's foe, a pick among players), `spellbook`, `cost` (Power, when the listing or
    the decision says it), `value` (a number picked), `word` (the word picked; a requirement's second
    id), `gate` (the unit controls the Gate where it stands). It reads as the named tuple of its
    fields (option_record.py); its `label` is made the first time it is read and kept."""

    @property
    def label(self) -> str:
        """The option's text (`label_of`)."""
        label = self._label
        if label is None:
            label = label_of(self)
            keep_label(self, label)
        return label  # type: ignore[no-any-return]

    def as_json(self) -> dict[str, Any]:
        """The label and the fields that apply, as plain data (not the decision kind)."""
        out: dict[str, Any] = {"label": label_of(self)}
        for k, v in zip(FIELDS, self.fields()):
            if v is not None and v is not False and k != "kind":
                out[k] = v
        return out


def _new(kind: str, verb: str, unit_kind: Any, unit: Any, src: Any, dst: Any, area: Any, ability: Any, player: Any,
         spellbook: Any, cost: Any, value: Any, word: Any, gate: bool, label: str | None) -> Option:
    """A record with these fields (and its label, or None: made when first read), made by the type's
    `__new__` and `fill` (a C `tp_new` and C writes in the compiled core), not by a call of the type."""
    o = Option.__new__(Option)
    fill(o, kind, verb, unit_kind, unit, src, dst, area, ability, player, spellbook, cost, value, word, gate, label)
    return o


def with_cost(o: Option, cost: int | None) -> Option:
    """`o` costing `cost` (`o._replace(cost=cost)`; its label, which names no cost, kept)."""
    return _new(o.kind, o.verb, o.unit_kind, o.unit, o.src, o.dst, o.area, o.ability, o.player, o.spellbook, cost,
                o.value, o.word, o.gate, o._label)


# ---- the action listing's records -------------------------------------------------------------------------
# The listing makes the same actions decision after decision: each record is made once (and its
# label with it, when first read) and shared, by verb, then area, then the unit kind, foe or ability
# it names (the first given; with the second id, if any), as (cost, unit kind, foe, ability, second
# id, record), those fields compared: a hit is three dict reads by a str (or None) and five compares,
# with no key tuple made and hashed (one made at another cost or with other fields replaces it). The
# fields are compared in a plain tuple. Cleared when full.
_ACTIONS: dict[str, dict[str | None, dict[Any, tuple[Any, ...]]]] = {}
_ACTIONS_MAX = 20_000


def action(verb: str, cost: int, unit_kind: str | None = None, area: str | None = None, player: str | None = None,
           ability: str | None = None, word: str | None = None) -> Option:
    """An action of the listing (`kind` 'action'): `recruit`/`summon`/`awaken` a `unit_kind` in
    `area`, a gate verb in `area`, `battle`/`extra-battle`/`capture` `player` in `area`, an
    `ability` (ending in `area`), a `requirement` (`ability`, and `word` when two are met together),
    or a verb alone; `cost` in Power. The listings pass
    every field positionally (a keyword call costs the compiled core an argument dict)."""
    by_area = _ACTIONS.get(verb)
    if by_area is None:
        by_area = _ACTIONS[verb] = {}
    by_name = by_area.get(area)
    if by_name is None:
        if len(by_area) >= _ACTIONS_MAX:
            by_area.clear()
        by_name = by_area[area] = {}
    name: Any = unit_kind if unit_kind is not None else player if player is not None else ability
    if word is not None:
        name = (name, word)   # (two requirements met together: beside the first's own action)
    kept = by_name.get(name)
    if kept is not None and _same(kept[0], cost) and _same(kept[1], unit_kind) and _same(kept[2], player) \
            and _same(kept[3], ability) and _same(kept[4], word):
        return kept[5]  # type: ignore[no-any-return]
    if len(by_name) >= _ACTIONS_MAX:
        by_name.clear()
    o = _action_record(verb, cost, unit_kind, area, player, ability, word)
    by_name[name] = (cost, unit_kind, player, ability, word, o)
    return o


def _same(a: Any, b: Any) -> bool:
    """`a == b`, answered by identity first (a listing passes the very strs and None it passed before)."""
    return a is b or a == b


def _action_record(verb: str, cost: int | None, unit_kind: str | None, area: str | None, player: str | None,
                   ability: str | None, word: str | None) -> Option:
    """An action's record (its `dst` the `area` of a placing verb), made by `_new` (no keywords mapped)."""
    return _new("action", verb, unit_kind, None, None, area if verb in PLACE else None, area, ability, player, None, cost,
                None, word, False, None)


def _move_record(unit_kind: str, src: str, dst: str, uid: int, cost: int | None) -> Option:
    """A unit move's record, made likewise."""
    return _new("move", "move-unit", unit_kind, uid, src, dst, None, None, None, None, cost, None, None, False, None)


# The Move listing's unit moves, likewise: each made once, with its label, and shared, by unit id,
# origin then destination, as (cost, unit kind, (label, record)) (the last made at another cost or
# kind replaced): a hit is three dict reads by an int and two strs and two compares, with no key
# tuple made and hashed. A move decision lists about a hundred, and a game makes many anew (units
# move on), so a new one is made by `_new` with its label at once. The listing takes the label from
# the pair (reading `.label` is a property's generic attribute lookup, even in the compiled core).
# Cleared when full.
_MOVES: dict[int, dict[str, dict[str, tuple[Any, ...]]]] = {}


def move(unit_kind: str, src: str, dst: str, uid: int, cost: int) -> Option:
    """A unit move of the Move listing (`kind` 'move'): unit `uid`, a `unit_kind`, from `src` to
    `dst`, costing `cost` Power."""
    return labelled_move(unit_kind, src, dst, uid, cost)[1]


def _moves_from(uid: int, src: str) -> dict[str, tuple[Any, ...]]:
    """The kept moves of unit `uid` from `src`, by destination (`_MOVES`: found or made, the table
    cleared when full); C calls of dicts in the compiled core (option.pxd: an int key, then strs)."""
    by_src = _MOVES.get(uid)
    if by_src is None:
        if len(_MOVES) >= _ACTIONS_MAX:
            _MOVES.clear()
        by_src = _MOVES[uid] = {}
    by_dst = by_src.get(src)
    if by_dst is None:
        by_dst = by_src[src] = {}
    return by_dst  # type: ignore[no-any-return]


def labelled_move(unit_kind: str, src: str, dst: str, uid: int, cost: int) -> tuple[str, Option]:
    """`move`'s record with its label, (label, record): both made once and shared."""
    by_dst = _moves_from(uid, src)
    kept = by_dst.get(dst)
    if kept is not None and _same(kept[0], cost) and _same(kept[1], unit_kind):
        return kept[2]  # type: ignore[no-any-return]
    label = move_label(unit_kind, src, dst, uid)
    o = _new("move", "move-unit", unit_kind, uid, src, dst, None, None, None, None, cost, None, None, False, label)
    entry = (label, o)
    by_dst[dst] = (cost, unit_kind, entry)
    return entry


def labelled_moves(unit_kind: str, src: str, dsts: Any, uid: int) -> list[tuple[str, Option]]:
    """`labelled_move`'s (label, record) for unit `uid` (a `unit_kind` at `src`) to each of `dsts` in
    order, at 1 Power: the table walked to the unit's origin once, and a new label made of its head
    (kind and origin) and tail (the id), each made once for the unit, around the destination."""
    by_dst = _moves_from(uid, src)
    made = []
    head = tail = ""
    for dst in dsts:
        kept = by_dst.get(dst)
        if kept is not None and _same(kept[0], 1) and _same(kept[1], unit_kind):
            made.append(kept[2])
            continue
        if not tail:
            head, tail = f"{unit_kind} {src}->", f"#{uid}"
        label = f"{head}{dst}{tail}"   # (move_label's text: one string made, not two joins)
        o = _new("move", "move-unit", unit_kind, uid, src, dst, None, None, None, None, 1, None, None, False, label)
        entry = (label, o)
        by_dst[dst] = (1, unit_kind, entry)
        made.append(entry)
    return made


# ---- record -> label ---------------------------------------------------------------------------------------
def label_of(o: Option) -> str:
    """The label of option `o` (the table above)."""
    verb, kind = o.verb, o.kind
    if verb == "done":
        return "done"
    if kind == "action":
        if verb in PLACE:
            return f"{verb} {o.unit_kind} {o.area}"
        if verb in AT:
            return f"{verb} {o.area}"
        if verb in VERSUS:
            return f"{verb} {o.area} {o.player}"
        if verb == "ability":
            return f"ability {o.ability}" if o.area is None else f"ability {o.ability} {o.area}"
        if verb == "requirement":
            return f"requirement {o.ability}" if o.word is None else f"requirement {o.ability}+{o.word}"
        return verb
    if verb == "move-unit":
        return move_label(o.unit_kind or "", o.src or "", o.dst or "", o.unit or 0)
    if verb == "unit":
        return unit_label(o.unit_kind or "", o.src or "", o.unit or 0, o.gate)
    if verb in ("use", "decline"):
        return f"{verb} {o.ability}"
    if verb == "ritual":
        return "ritual"
    if verb == "pick":
        return str(o.value) if o.value is not None else str(o.word)
    for field in (o.area, o.player, o.spellbook, o.ability, o.word):
        if field is not None:
            return field
    raise UnclassifiedOption(f"a '{kind}' option {o!r} has no label")


def move_label(unit_kind: str, src: str, dst: str, uid: int) -> str:
    """A unit move's label: 'kind src->dst#id'."""
    return f"{unit_kind} {src}->{dst}#{uid}"


def move_answer(label: str) -> tuple[int, str]:
    """The unit id and the destination that a unit move's label names ('KIND SRC->DST#ID',
    `move_label`), as `parse("move", label)` reads them, with no record made."""
    i = label.rfind("#")   # (its id after the last '#', its place after the first space)
    k = label.find("->", label.find(" ") + 1)
    return int(label[i + 1:]), label[k + 2:i]


def unit_label(unit_kind: str, loc: str, uid: int, gate: bool = False) -> str:
    """A unit option's label: 'kind loc#id', with ' (gate)' when it controls the Gate there."""
    return f"{unit_kind} {loc}{_GATE if gate else ''}#{uid}"


# ---- label -> record ---------------------------------------------------------------------------------------
# labels the engine reads back (no players or areas needed), by kind, then label (two reads by a
# str, whose hash is kept: no key tuple made and hashed); a kind's table cleared when full
_PARSED: dict[str, dict[str, Option]] = {}
_PARSED_MAX = 20_000


def parse(kind: str, label: str, players: Iterable[str] | None = None,
          areas: Iterable[str] | None = None) -> Option:
    """The option a label of a `kind` decision stands for (UnclassifiedOption if none). `players`
    and `areas` (the table's factions, the map's areas) let a `player` pick be checked and a unit
    option name its area; without them the record says what the label alone says."""
    if players is None and areas is None:
        by_label = _PARSED.get(kind)
        if by_label is None:
            by_label = _PARSED[kind] = {}
        o = by_label.get(label)
        if o is None:
            if len(by_label) >= _PARSED_MAX:
                by_label.clear()
            o = by_label[label] = classify(kind, label, None, None)
        return o  # type: ignore[no-any-return]
    return classify(kind, label, None if players is None else frozenset(players),
                    None if areas is None else frozenset(areas))


def classify(kind: str, label: str, players: frozenset[str] | None, areas: frozenset[str] | None) -> Option:
    """`parse` without its table (`options.option_info` keeps its own)."""
    def bad(why: str) -> UnclassifiedOption:
        return UnclassifiedOption(f"a '{kind}' option '{label}': {why}")

    if label == "done" and kind in ("move", "unit", "ability", "doom"):
        return Option(kind, "done")
    words = label.split()
    if kind == "action":
        if not words:
            raise bad("no action of this form")
        verb, args = words[0], words[1:]
        if verb in PLACE and len(args) == 2:
            return _action_record(verb, None, args[0], args[1], None, None, None)
        if verb in AT and len(args) == 1:
            return _action_record(verb, None, None, args[0], None, None, None)
        if verb in VERSUS and len(args) == 2:
            return _action_record(verb, None, None, args[0], args[1], None, None)
        if verb == "ability" and len(args) in (1, 2):
            return _action_record(verb, None, None, args[1] if len(args) == 2 else None, None, args[0], None)
        if verb == "requirement" and len(args) == 1:
            first, _, second = args[0].partition("+")
            return _action_record(verb, None, None, None, None, first, second or None)
        if verb in BARE and not args:
            return _action_record(verb, None, None, None, None, None, None)
        raise bad("no action of this form")
    if kind == "move":
        unit_kind, place, uid = _unit_parts(kind, label)
        if "->" not in place:
            raise bad("a unit move is 'KIND SRC->DST#ID'")
        src, dst = place.split("->", 1)
        return _move_record(unit_kind, src, dst, uid, None)
    if kind == "unit":
        unit_kind, place, uid = _unit_parts(kind, label)
        gate = place.endswith(_GATE)
        loc = place[:-len(_GATE)] if gate else place
        return Option(kind, "unit", unit_kind=unit_kind, unit=uid, src=loc,
                      area=loc if areas is not None and loc in areas else None, gate=gate)
    if kind == "area" and len(words) == 1:
        return Option(kind, "area", area=label)
    if kind == "player" and (label in players if players is not None else len(words) == 1):
        return Option(kind, "player", player=label)
    if kind == "spellbook" and len(words) == 1:
        return Option(kind, "spellbook", spellbook=label)
    if kind == "ability" and len(words) == 1:
        return Option(kind, "ability", ability=label)
    if kind == "doom" and len(words) == 1:
        return Option(kind, "ritual") if label == "ritual" else Option(kind, "ability", ability=label)
    if kind == "option":
        if len(words) == 2 and words[0] in ("use", "decline"):
            return Option(kind, words[0], ability=words[1])
        if players is not None and label in players:
            return Option(kind, "player", player=label)
        if len(words) == 1:
            return Option(kind, "option", word=label)
    if kind == "secret" and len(words) == 1:
        try:
            return Option(kind, "pick", value=int(label))
        except ValueError:
            return Option(kind, "pick", word=label)
    raise bad("no option of this form")


def _unit_parts(kind_of_decision: str, label: str) -> tuple[str, str, int]:
    """`KIND PLACE#ID` -> (kind, place, id)."""
    head, sep, uid = label.rpartition("#")
    kind, space, place = head.partition(" ")
    if not sep or not space or not uid.isdigit():
        raise UnclassifiedOption(f"a '{kind_of_decision}' option '{label}': a unit is 'KIND PLACE#ID'")
    return kind, place, int(uid)


def unit_of_label(label: str) -> int:
    """The unit id a unit option's label names ('kind place#id'; a move's label too)."""
    return _unit_parts("unit", label)[2]


def parse_answer(kind: str, answer: str) -> Option | None:
    """What a typed answer that is no option names, as far as it goes (for saying why it is
    refused): for an action, its verb and the arguments given, in the label's order; None when
    it names nothing."""
    try:
        return parse(kind, answer)
    except UnclassifiedOption:
        pass
    words = answer.split()
    if kind != "action" or not words:
        return None
    verb, args = words[0], words[1:] + [None, None]
    if verb in PLACE:
        return Option(kind, verb, unit_kind=args[0], area=args[1], dst=args[1])
    if verb in VERSUS:
        return Option(kind, verb, area=args[0], player=args[1])
    if verb == "ability":
        return Option(kind, verb, ability=args[0], area=args[1])
    return Option(kind, verb)


def is_done(label: str) -> bool:
    """Whether a label is the `done` that ends a series of picks (moves, units, abilities)."""
    return label == "done"


def action_verb(label: str) -> str:
    """An action label's verb (its first word; '' for an empty label): for reading logs."""
    words = label.split(None, 1)
    return words[0] if words else ""


# ---- answers typed by people, patterns in scenario files --------------------------------------------------
def match_option(options: tuple[str, ...], answer: str) -> str | None:
    """The option an answer names: the exact label; else the first whose label before '#' is the
    answer (so 'acolyte b' picks an acolyte in area b that controls no gate); else the first
    whose label before ' (' is the answer (a gate's controller too)."""
    if answer in options:
        return answer
    for o in options:
        if o.split("#", 1)[0] == answer:
            return o
    for o in options:
        if o.split("#", 1)[0].split(" (", 1)[0] == answer:
            return o
    return None


def options_starting(options: Iterable[str], head: str) -> list[str]:
    """The options that are `head` or begin with `head` and a space (a scenario's 'ability x *')."""
    return [o for o in options if o == head or o.startswith(head + " ")]


def without_unit_id(label: str) -> tuple[str, int | None]:
    """A label without its unit's '#id', and that id (None when it names no unit)."""
    head, sep, uid = label.rpartition("#")
    if sep and uid.isdigit() and " " in head:
        return head, int(uid)
    return label, None
