"""`necro show faction`: a faction's card drawn in the terminal with rich, read from its content file.

The compiled model holds costs and combat values as closures, so the card reads the values as
written (`3`, `"ceil(doom(enemy) / 2)"`) from the faction's own YAML file, the one the loader chose
after layering modders' folders.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from necronomicon.interpreter.content.model import ContentModel, Faction
from necronomicon.interpreter.paths import content_dir

from ..words import window_phrase

TIMING = {"action": "Action", "unlimited-action": "Unlimited action", "static": "Ongoing"}


def timing(ability: dict[str, Any], source: bool = False) -> str:
    """A readable timing label for an ability document: its window in words, its cost, how often."""
    window = str(ability.get("window", "?"))
    phrase = window_phrase(window)
    label = TIMING.get(window) or phrase[:1].upper() + phrase[1:]
    cost = ability.get("cost")
    if cost not in (None, 0) or (cost is not None and ability.get("window") in ("action", "unlimited-action")):
        label += f" ({_value(cost, source)} Power)"
    if ability.get("once"):
        once = str(ability["once"])
        label += f", once per {once if source else ONCE.get(once, once.replace('-', ' '))}"
    return label


# an ability's `once:` scope in words (schema/defs.schema.json)
ONCE = {"action-phase": "Action Phase", "doom-phase": "Doom Phase"}
# the setup's flags in words (schema/faction.schema.json `setup`)
SETUP_FLAGS = {"choose-start-after-others": "chooses its start area after the others",
               "start-anywhere": "starts in any area",
               "never-first-at-start": "is never the first player at the start",
               "always-first": "always goes first"}


VARIES = "varies"


def _value(v: Any, source: bool = False) -> str:
    """A cost or combat as a reader wants it: a number; a formula is 'varies' (its words are in
    the unit's notes), the formula itself only with --source."""
    if isinstance(v, dict):
        return f"? ({v.get('unknown', 'unknown')})"
    text = str(v).strip()
    if text.lstrip("-").isdigit() or source:
        return text
    return VARIES


def _effect_note(doc: dict[str, Any], source: bool) -> str:
    """With --source: the effect-language text of an ability or requirement, for modders."""
    if not source:
        return ""
    parts = [f"{k}: {' '.join(str(doc[k]).split())}" for k in ("condition", "effect") if doc.get(k)]
    return ("\n    " + "\n    ".join(parts)) if parts else ""


def raw_document(faction: Faction) -> dict[str, Any]:
    """The faction's YAML as written (the file the loader used)."""
    data = yaml.safe_load(Path(faction.pos.path).read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def start_areas(model: ContentModel, faction_id: str, ids: bool = False) -> list[str]:
    """'Area Name (layout; layout...)' for every area that lists the faction as a start: layouts
    by name (by id with `ids`, as `--layout` takes them)."""
    found: dict[str, list[str]] = {}
    for lay in model.layouts.values():
        for a in lay.areas.values():
            if faction_id in a.starts:
                found.setdefault(a.name, []).append(lay.id if ids else lay.name)
    return [f"{name} ({'; '.join(sorted(lays))})" for name, lays in sorted(found.items())]


def _setup(model: ContentModel, f: Faction, doc: dict[str, Any], ids: bool = False) -> Text:
    s = f.setup
    cultist = next((u.name for u in f.units.values() if u.cls == "cultist"), "cultists")
    line = f"{s['power']} Power, {s['cultists']} × {cultist}" + (" and a controlled Gate" if s.get("gate") else "")
    flags = [k if ids else words for k, words in SETUP_FLAGS.items() if s.get(k)]
    t = Text()
    t.append("Setup: ", style="bold")
    t.append(line + (f"; {f.name} {', '.join(flags)}" if flags and not ids else f"  [{', '.join(flags)}]" if flags else ""))
    if s.get("text"):
        t.append(f"\n{s['text']}")
    starts = start_areas(model, f.id, ids)
    t.append("\nStarts: ", style="bold")
    t.append("any area without a Gate, chosen after every other faction" if s.get("start-anywhere") else
             "; ".join(starts) if starts else "no map names this faction as a start (add it to an area's `starts:`)")
    if f.tokens:
        named = {tk.get("id"): tk.get("name") for tk in doc.get("tokens", []) if isinstance(tk, dict)}
        t.append("\nTokens: ", style="bold")
        t.append(", ".join(f"{n} × {named.get(tid) or tid}" + (f" ({tid})" if ids else "") for tid, n in f.tokens.items()))
    return t


def shown_path(path: str) -> str:
    """Built-in files by their place in the content tree (never the install path); a modder's
    file relative to here when it is below, else as given."""
    builtin = content_dir().resolve()
    try:
        return "built-in " + str(Path(path).resolve().relative_to(builtin))
    except ValueError:
        pass
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _table(title: str, *columns: str) -> Table:
    t = Table(title=title, title_justify="left", title_style="bold")
    t.add_column(columns[0], no_wrap=True)
    for c in columns[1:]:
        t.add_column(c, overflow="fold")
    return t


def _section(title: str, items: list[tuple[str, str, str]]) -> Text:
    """A titled list of 'name (detail): text' entries; the terminal wraps the text."""
    t = Text()
    t.append(f"\n{title}\n", style="bold underline")
    for name, detail, text in items:
        t.append("• ")
        t.append(name, style="bold")
        if detail:
            t.append(f" ({detail})", style="cyan")
        t.append(f": {text}\n" if text else "\n")
    t.rstrip()
    return t


def _units(doc: dict[str, Any], source: bool) -> list[Any]:
    t = _table("Units", "unit", "class", "count", "cost", "combat")
    for u in doc.get("units", []):
        t.add_row(u["name"], u.get("class", ""), str(u.get("count", 1)), _value(u.get("cost"), source), _value(u.get("combat"), source))
    notes = [(u["name"], "", u["text"]) for u in doc.get("units", []) if u.get("text")]
    return [t, *_varies_note(t), _section("Unit notes", notes)] if notes else [t, *_varies_note(t)]


def _varies_note(table: Table) -> list[Text]:
    cells = [c for col in table.columns for c in col._cells]  # noqa: SLF001 - rich keeps cells there
    if VARIES not in cells:
        return []
    return [Text(f"{VARIES}: worked out in play (see the notes); `--source` shows the formula", style="dim")]


def _goos(doc: dict[str, Any], source: bool) -> list[Any]:
    goos = doc.get("great-old-ones", [])
    if not goos:
        return []
    t = _table("Great Old Ones", "Great Old One", "cost", "combat")
    for g in goos:
        t.add_row(g["name"], _value(g.get("cost"), source), _value(g.get("combat"), source))
    notes = [(g["name"], "", g["text"]) for g in goos if g.get("text")]
    return [t, *_varies_note(t), *([_section("Great Old One notes", notes)] if notes else []),
            _section("Awakening", [(g["name"], "", g.get("awaken", {}).get("text", "")) for g in goos])]


def _abilities(doc: dict[str, Any], source: bool) -> Text:
    """The abilities on the card (a rule's `bookkeeping: true` tally is not one)."""
    shown = [a for a in doc.get("abilities", []) if not a.get("bookkeeping")]
    items = [(a["name"], timing(a, source), a.get("text", "") + _effect_note(a, source)) for a in shown]
    for u in doc.get("units", []) + doc.get("great-old-ones", []):
        items += [(f"{a['name']} [{u['name']}]", timing(a, source), a.get("text", "") + _effect_note(a, source))
                  for a in u.get("abilities", []) if not a.get("bookkeeping")]
    return _section("Abilities", items)


def _spellbooks(doc: dict[str, Any], source: bool) -> Text:
    items = []
    for s in doc.get("spellbooks", []):
        when = sorted({timing(a, source) for a in s.get("abilities", [])})
        items.append((s["name"], "; ".join(when), s.get("text", "") + "".join(_effect_note(a, source) for a in s.get("abilities", []))))
    return _section("Spellbooks", items)


def _requirements(doc: dict[str, Any], source: bool) -> Text:
    items = []
    for i, r in enumerate(doc.get("requirements", []), 1):
        act = r.get("action")
        how = []
        if "condition" in r:
            how.append(window_phrase(str(r["when"])) if r.get("when", "state") != "state" else "whenever it holds")
        if act is not None:
            how.append(f"{'unlimited ' if act.get('unlimited') else ''}action, {_value(act.get('cost', 0), source)} Power")
        if r.get("together"):
            number = {o.get("id"): f"{j}." for j, o in enumerate(doc.get("requirements", []), 1)}
            how.append(f"together with {', '.join(o if source else number.get(o, o) for o in r['together'])}")
        items.append((f"{i}.", " or ".join(how), r.get("text", "") + _effect_note(r, source)))
    return _section("Spellbook requirements", items)


def faction_card(model: ContentModel, faction_id: str, source: bool = False, ids: bool = False) -> Panel:
    """The whole card as one rich renderable; `source` adds the effect-language text (formulas,
    conditions, effects) that modders write, which a reader otherwise gets in words; `ids` adds
    the faction's id to its title."""
    f = model.factions[faction_id]
    doc = raw_document(f)
    head = Text()
    if doc.get("description"):
        head.append(doc["description"] + "\n", style="italic")
    if doc.get("provenance") == "public-description":
        head.append(PUBLIC_NOTE + "\n", style="bold yellow")
    if doc.get("source"):
        head.append("Source: ", style="bold")
        head.append(doc["source"] + "\n")
    head.append_text(_setup(model, f, doc, ids or source))
    parts: list[Any] = [head, *_units(doc, source), *_goos(doc, source), _abilities(doc, source),
                        _spellbooks(doc, source), _requirements(doc, source)]
    status = doc.get("status", "")
    subtitle = shown_path(f.pos.path) + (f" · {status}" if status else "") + (f" · expansion {f.expansion}" if f.expansion else "")
    return Panel(Group(*parts), title=f"[bold]{f.name}[/]" + (f" ({f.id})" if ids or source else ""), subtitle=subtitle, subtitle_align="right")


PUBLIC_NOTE = "Taken from public descriptions of the published card, not from a rulebook shipped here."


def faction_list(model: ContentModel, ids: bool = False) -> Table:
    """One row per faction: its name (and id, with `ids`), what it has, where it comes from."""
    t = _table("Factions", *(["id"] if ids else []), "name", "from", "spellbooks", "Great Old Ones", "units")
    for fid in sorted(model.factions, key=lambda i: model.factions[i].name.casefold()):
        f = model.factions[fid]
        units = ", ".join(u.name for u in f.units.values() if u.cls != "great-old-one")
        where = f"expansion {f.expansion}" if f.expansion else origin(f.pos.path)
        if raw_document(f).get("provenance") == "public-description":
            where += " (public descriptions)"
        t.add_row(*([fid] if ids else []), f.name, where,
                  str(len(f.spellbooks)), ", ".join(g.name for g in f.goos), units)
    return t


def origin(path: str) -> str:
    """Where a faction comes from, short: 'built-in', or a modder's folder (its name)."""
    shown = shown_path(path)
    return "built-in" if shown.startswith("built-in ") else Path(path).parent.parent.name or shown


def print_faction(model: ContentModel, faction_id: str | None, console: Console, source: bool = False,
                  ids: bool = False) -> None:
    """Print one faction's card, or the list of factions when no id is given."""
    console.print(faction_card(model, faction_id, source, ids) if faction_id else faction_list(model, ids))
