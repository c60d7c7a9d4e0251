"""The game's words for people: engine text (log lines, prompts, option labels) with every content id
replaced by its content name (a faction's `some-faction` -> its `name:`, `Some Faction`),
unit numbers (`#9`) dropped, prompts phrased from the decision (`<Faction>: use <Ability> after
<Other Faction>'s action?`) and spellbook picks shown with each book's text.

The engine's labels stay its vocabulary (logs, saves, answers); this module only presents them.
`Words.ids()` is the identity, for `--ids` and scripts. The names come from the loaded content,
so a modder's faction reads as its own `name:`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from necronomicon.interpreter.engine.decisions import Decision
from necronomicon.interpreter.engine.option import is_done

__all__ = ["Words", "words_for", "WINDOW_WHEN", "content_names", "bookkeeping_keys", "window_phrase"]

# An id as it appears in engine text: lower-case words joined by hyphens (`some-faction`), which
# may carry a unit number (`some-unit#7`) or a possessive (`some-faction's`).
_TOKEN = re.compile(r"(?<![A-Za-z0-9-])([a-z0-9][a-z0-9]*(?:-[a-z0-9]+)*)(#\d+)?(?![A-Za-z0-9]|-[A-Za-z0-9])")
_UNIT_NUMBER = re.compile(r"#\d+")
_ARROW = re.compile(r" *-> *")   # a move's arrow between names (`Area One -> Area Two`)
_DOUBLED = re.compile(r"^([^:\n]{1,80}): \1: ")
# A unit option's label inside a prompt (`some-unit some-area#9`, `... (gate)#9`): what the prompt is about.
_UNIT_LABEL = re.compile(r"(?<![A-Za-z0-9-])([a-z0-9]+(?:-[a-z0-9]+)*) ([a-z0-9]+(?:-[a-z0-9]+)*)( \(gate\))?#\d+")

# When each timing window opens, as a prompt says it ({player}, {area}, {kind} from the window's
# event, in names; a phrase whose field is missing falls back to the one after '|').
WINDOW_WHEN: dict[str, str] = {
    "action": "as an action",
    "unlimited-action": "as an action",
    "battle-declared": "now that a battle is declared in {area}|now that a battle is declared",
    "before-battle": "before the battle in {area}|before the battle",
    "battle-roll": "after {player}'s battle roll|after a battle roll",
    "result-assigned": "now that a battle result is assigned",
    "kills-assigned": "now that the kills are assigned",
    "pains-assigned": "now that the pains are assigned",
    "after-assignment": "now that every battle result is assigned",
    "retreats": "after the retreats",
    "after-battle": "after the battle in {area}|after the battle",
    "unit-moved": "after {player}'s unit moved|after a unit moved",
    "unit-removed": "as a unit is removed",
    "unit-captured": "as a unit is captured",
    "gate-created": "after {player} created a Gate in {area}|after a Gate was created",
    "after-action": "after {player}'s action|after any player's action",
    "gather-power": "after gathering Power",
    "after-gather-power": "at the end of Gather Power",
    "end-of-power-phase": "at the end of the Power phase",
    "doom-phase": "in the Doom phase",
    "end-of-doom-phase": "at the end of the Doom phase",
    "on-awaken": "as {kind} awakens|as a Great Old One awakens",
    "ritual": "after {player}'s Ritual of Annihilation|after the Ritual of Annihilation",
    "static": "",
}


def window_phrase(window: str) -> str:
    """When `window` opens, said in general (`after any player's action`); the id if unknown."""
    phrase = WINDOW_WHEN.get(window)
    if phrase is None:
        return window
    first, _, general = phrase.partition("|")
    return general or first


def content_names(model: Any) -> dict[str, str]:
    """Every content id of `model` with its name: factions, loyalty cards, units, abilities,
    spellbooks, areas, neutral cards, rulesets and layouts; a requirement's id reads as its text."""
    names: dict[str, str] = {}

    def abilities(items: Any) -> None:
        for ab in items or ():
            names.setdefault(ab.id, ab.name)

    def named(thing: Any) -> None:   # a faction, unit, spellbook or card: its name and its abilities'
        names.setdefault(thing.id, thing.name)
        abilities(thing.abilities)

    def faction(f: Any) -> None:
        named(f)
        for x in (*f.units.values(), *f.spellbooks.values()):
            named(x)
        for r in f.requirements:
            names.setdefault(r.id, f"“{r.text.rstrip('.')}”")

    for f in (*model.factions.values(), *model.loyalty_cards.values()):
        faction(f)
    for x in (*model.neutral_units.values(), *model.neutral_spellbooks.values(), *model.neutral_cards.values()):
        named(x)
    for c in model.neutral_cards.values():
        abilities([c.acquire] if c.acquire is not None else [])
    for r in model.rulesets.values():
        names.setdefault(r.id, r.name)
        abilities(r.abilities)
    for layout in model.layouts.values():
        names.setdefault(layout.id, layout.name)
        for a in layout.areas.values():
            names.setdefault(a.id, a.name)
    return {i: n for i, n in names.items() if n and n != i}


@dataclass
class Words:
    """Presents engine text in content names (`names` empty: ids as they are, for `--ids`)."""

    names: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)   # spellbook id -> its card text
    bookkeeping: frozenset[str] = frozenset()             # keys of abilities never shown as abilities

    @classmethod
    def ids(cls) -> "Words":
        return cls()

    def name(self, ident: Any) -> str:
        """The name of one id (the id itself when it names nothing)."""
        return self.names.get(str(ident), str(ident))

    def text(self, line: str) -> str:
        """`line` with every id that has a name replaced by it, and unit numbers dropped."""
        if not self.names:
            return line
        names = self.names

        def one(m: re.Match[str]) -> str:
            return names.get(m.group(1), m.group(1))
        out = _ARROW.sub(" -> ", _UNIT_NUMBER.sub("", _TOKEN.sub(one, line)))
        return _DOUBLED.sub(r"\1: ", out)

    def refusal(self, code: str, message: str, d: Decision | None = None, game: Any = None) -> str:
        """Why an answer was refused (`Game.why_illegal`, `IllegalAction`) in names: the engine's
        sentence with every id named, and the decision's prompt said as `question` says it."""
        said = self.text(message)
        if self.names and d is not None and code == "not-an-option":
            said = said.replace(f"({self.text(d.prompt)})", f"({self.question(d, game)})", 1)
        return said

    def option(self, d: Decision, label: str) -> str:
        """One option as a person reads it; a spellbook pick adds the book's text."""
        shown = self.text(label)
        if d.kind == "spellbook" and self.names and label in self.texts:
            return f"{shown}: {self.texts[label]}"
        return shown

    def prompt(self, d: Decision, game: Any = None) -> str:
        """What is being decided, once prefixed by who decides: `<Faction>: choose an action`."""
        return f"{self.name(d.player)}: {self.question(d, game)}"

    def question(self, d: Decision, game: Any = None) -> str:
        """What is being decided, without who decides (`use <Ability> after <Faction>'s action?`)."""
        who = self.name(d.player)
        said = d.prompt
        for prefix in (f"{d.player}: ", f"{who}: "):   # the engine's own prefix is not repeated
            if said.startswith(prefix):
                said = said[len(prefix):]
        window = d.context.get("window") if isinstance(d.context, dict) else None
        if d.kind == "ability" and isinstance(window, str) and self.names:
            said = self._window_prompt(d, window, game)
        elif d.kind == "spellbook" and self.names and ": choose" in said:   # "<requirement>: choose a spellbook"
            met, _, pick = said.rpartition(": choose")
            said = f"choose{pick} (requirement met: {met.rstrip('.')})"
        elif self.names:
            said = self._about_a_unit(said)
        return self.text(said)

    def _about_a_unit(self, said: str) -> str:
        """A prompt naming one unit by its label (`retreat some-unit some-area#9 to`) says the unit
        first (`Some Unit from Some Area: retreat to …`)."""
        found = [m for m in _UNIT_LABEL.finditer(said) if m.group(1) in self.names and m.group(2) in self.names]
        if len(found) != 1:
            return said
        m = found[0]
        rest = " ".join((said[:m.start()] + said[m.end():]).split())
        unit = f"{self.name(m.group(1))} from {self.name(m.group(2))}"
        return f"{unit}: {rest} …" if rest.endswith(" to") else f"{unit}: {rest}"

    def _window_prompt(self, d: Decision, window: str, game: Any) -> str:
        abilities = [o for o in d.options if not is_done(o)]
        what = self.name(abilities[0]) if len(abilities) == 1 else "an ability"
        when = _when(window, _window_event(game, window), d.player, self)
        return f"use {what} {when}?" if when else f"use {what}?"


def _when(window: str, event: dict[str, Any], asker: str, words: Words) -> str:
    phrase = WINDOW_WHEN.get(window)
    if phrase is None:
        return f"now ({window})" if not words.names else "now"
    first, _, fallback = phrase.partition("|")
    fields = {k: ("your" if k == "player" and v == asker else words.name(v)) for k, v in event.items()
              if isinstance(v, str)}
    try:
        said = first.format(**fields)
    except (KeyError, IndexError, ValueError):
        return fallback or first
    return said.replace("your's", "your")


def _window_event(game: Any, window: str) -> dict[str, Any]:
    """The event of the innermost open `window` in the game's flow ({} when none is found)."""
    flow = getattr(getattr(game, "s", None), "flow", None)
    for frame in reversed(flow if isinstance(flow, list) else []):
        if isinstance(frame, dict) and frame.get("window") == window:
            event = frame.get("event")
            return event if isinstance(event, dict) else {}
    return {}


def bookkeeping_keys(model: Any) -> frozenset[str]:
    """The keys (`owner/id`) of every ability marked `bookkeeping: true`."""
    holders = [*model.factions.values(), *model.loyalty_cards.values()]
    found = {ab.key for f in holders for ab in (*f.abilities, *(a for u in f.units.values() for a in u.abilities),
                                                  *(a for b in f.spellbooks.values() for a in b.abilities))
             if ab.bookkeeping}
    return frozenset(found)


# The engine's own hyphenated verbs in option labels, as words (answers may still be typed either way).
ENGINE_WORDS = {"end-turn": "end the turn", "abandon-gate": "abandon the Gate in", "control-gate": "control the Gate in",
                "create-gate": "create a Gate in", "extra-battle": "extra battle in", "reveal-elder-signs": "reveal Elder Signs"}

_CACHE: dict[int, tuple[Any, Words]] = {}


def words_for(model: Any, ids: bool = False) -> Words:
    """The words of a loaded content model (`Content.model` or a game's `content`), made once."""
    if model is None:
        return Words.ids()
    if ids:   # ids as they are; bookkeeping stays hidden
        return Words(bookkeeping=bookkeeping_keys(model))
    kept = _CACHE.get(id(model))
    if kept is not None and kept[0] is model:
        return kept[1]
    texts = {b.id: " ".join(b.text.split()) for f in model.factions.values() for b in f.spellbooks.values()}
    texts.update({b.id: " ".join(b.text.split()) for b in model.neutral_spellbooks.values()})
    windows = {w: w.replace("-", " ") for w in WINDOW_WHEN if "-" in w}   # a phase or a timing, in words
    made = Words({**windows, **ENGINE_WORDS, **content_names(model)}, texts, bookkeeping_keys(model))
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[id(model)] = (model, made)
    return made
