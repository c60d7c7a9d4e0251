"""A stable encoding of structured options (engine/options.py) as rows of integers.

The vocabulary is built from the content alone, never from one game: the same content (the same
folders and expansions) gives the same indices whichever factions sit at the table. Every table
is sorted by id, index 0 means "none" and index 1 "not in the vocabulary" (a value the content
did not declare), so the first real entry is 2:

| table | entries |
|---|---|
| verbs | `engine.options.VERBS`, in that fixed order |
| kinds | every unit kind: factions', neutral units', loyalty cards' |
| places | `pool`, `held`, `captured`, then every area of every map layout |
| abilities | every ability id and requirement id (factions, units, spellbooks, cards, rulesets) |
| factions | every faction id and loyalty card id |
| spellbooks | every spellbook id (factions' and neutral) |
| words | the engine's fixed words (`clockwise`, `counterclockwise`, `keep`), then every `choose` label written in the content folders' effects |

An option is a row of `OPTION_FIELDS` integers (see `OPTION_FIELDS` for the order): the table
indices of its verb, unit kind, src, dst, area, ability, spellbook and word; the seat it names
counted from the observer (0 none, 1 the observer, 2 the next in seating order...); its unit id,
cost and picked value (raw numbers, 0 when absent, cost + 1 so that a free option is not "none");
and 1 when the unit controls a Gate.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np
import yaml

from ..content.build import Content
from ..engine.options import VERBS, Option

__all__ = ["OPTION_FIELDS", "Vocabulary", "encode_options"]

OPTION_FIELDS = ("verb", "unit_kind", "src", "dst", "area", "ability", "spellbook", "word", "player", "unit",
                 "cost", "value", "gate")
NONE, UNKNOWN = 0, 1
_ENGINE_WORDS = ("clockwise", "counterclockwise", "keep")
_TABLES = ("verbs", "kinds", "places", "abilities", "factions", "spellbooks", "words")
_LABEL = re.compile(r"'([^'\s]+)'\s*(?:when\b[^{]*)?\{")


@dataclass(frozen=True)
class Vocabulary:
    """Sorted id tables; `index(table, id)` is the id's stable number."""

    verbs: tuple[str, ...]
    kinds: tuple[str, ...]
    places: tuple[str, ...]
    abilities: tuple[str, ...]
    factions: tuple[str, ...]
    spellbooks: tuple[str, ...]
    words: tuple[str, ...]
    #: each table's id -> index, made from the tables once (a declared field, not a cache set later)
    lookup: dict[str, dict[str, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lookup", {t: {v: i + 2 for i, v in enumerate(getattr(self, t))}
                                            for t in _TABLES})

    @classmethod
    def from_content(cls, content: Content) -> "Vocabulary":
        m = content.model
        owners = list(m.factions.values()) + list(m.loyalty_cards.values())
        kinds = {k for f in owners for k in f.units} | set(m.neutral_units)
        places = {a for lay in m.layouts.values() for a in lay.areas}
        abilities = {a.id for r in m.rulesets.values() for a in r.abilities}
        for f in owners:
            abilities |= {a.id for a in f.abilities} | {r.id for r in f.requirements}
            abilities |= {a.id for t in f.units.values() for a in t.abilities}
            abilities |= {a.id for b in f.spellbooks.values() for a in b.abilities}
        abilities |= {a.id for b in m.neutral_spellbooks.values() for a in b.abilities}
        for card in m.neutral_cards.values():
            abilities |= {a.id for a in (card.acquire, *card.abilities) if a is not None}
        abilities |= {a.id for u in m.neutral_units.values() for a in u.abilities}
        books = {b for f in owners for b in f.spellbooks} | set(m.neutral_spellbooks)
        words = [w for w in sorted(_choose_labels(content)) if w not in _ENGINE_WORDS]
        return cls(tuple(VERBS), tuple(sorted(kinds)), ("pool", "held", "captured", *sorted(places)),
                   tuple(sorted(abilities)), tuple(sorted([*m.factions, *m.loyalty_cards])), tuple(sorted(books)),
                   (*_ENGINE_WORDS, *words))

    def index(self, table: str, value: str | None) -> int:
        """0 for None, 1 for a value the table lacks, else 2 + its position."""
        if value is None:
            return NONE
        return self.lookup.get(table, {}).get(value, UNKNOWN)

    def sizes(self) -> dict[str, int]:
        """How many values each table's index can take (with none and unknown)."""
        return {t: len(getattr(self, t)) + 2 for t in _TABLES}


def _place(v: str | None) -> str | None:
    return v.split(":", 1)[0] if v is not None and ":" in v else v


def encode_options(infos: Iterable[Option], vocab: Vocabulary, seats: list[str], rows: int) -> np.ndarray:
    """The options as a (rows, len(OPTION_FIELDS)) int32 array (rows past the options are zeros);
    `seats`: the players from the observer on, in seating order."""
    out = np.zeros((rows, len(OPTION_FIELDS)), np.int32)
    seat_of = {p: k + 1 for k, p in enumerate(seats)}
    for i, o in enumerate(infos):
        if i >= rows:
            break
        out[i] = (vocab.index("verbs", o.verb), vocab.index("kinds", o.unit_kind), vocab.index("places", _place(o.src)),
                  vocab.index("places", o.dst), vocab.index("places", o.area), vocab.index("abilities", o.ability),
                  vocab.index("spellbooks", o.spellbook), vocab.index("words", o.word),
                  seat_of.get(o.player, UNKNOWN) if o.player is not None else NONE, o.unit or 0,
                  0 if o.cost is None else o.cost + 1, o.value or 0, int(o.gate))
    return out


def _choose_labels(content: Content) -> set[str]:
    """The labels of every `choose` written in the content folders' effects (read as YAML, safely)."""
    found: set[str] = set()
    for folder in content.folders:
        for path in sorted(folder.rglob("*.yaml")):
            try:
                doc = yaml.safe_load(path.read_text(encoding="utf-8"))
            except (OSError, yaml.YAMLError, UnicodeDecodeError):
                continue     # the loader reports bad files; the vocabulary just skips them
            for text in _effects(doc):
                if "choose" in text:
                    found.update(_LABEL.findall(text))
    return found


def _effects(node: object) -> Iterable[str]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "effect" and isinstance(v, str):
                yield v
            else:
                yield from _effects(v)
    elif isinstance(node, list):
        for v in node:
            yield from _effects(v)
