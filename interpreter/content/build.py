"""Turn checked documents into the compiled content model, resolving every cross-reference."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..diagnostics import ContentError, Pos, Report, did_you_mean
from ..effects import ast as A
from ..effects.primitive_facts import REMOVAL_WINDOW
from ..limits import MAX_COUNT, MAX_ROUNDS
from . import schema_check
from .effect_build import RESULTS, EffectBuilder, unknowns_under
from .files import Document, content_digest, discover
from .model import Ability, Area, ContentModel, Faction, Layout, NeutralCard, Requirement, Ruleset, Spellbook, UnitType
from .start_areas import check_start_areas, six_spellbooks
from .tables import build_tables

CLASSES = {"cultist", "monster", "terror", "great-old-one"}
# what checking a document with schema errors may run into (a missing key, a value of the wrong type)
MALFORMED = (KeyError, TypeError, AttributeError, ValueError, IndexError)


@dataclass
class Content:
    """Everything loaded for one set of folders: the model plus all diagnostics."""

    model: ContentModel
    report: Report
    folders: list[Path]
    digest: str = ""   # of the documents loaded (`content_digest`): what a trained evaluation was trained on

    @property
    def ok(self) -> bool:
        return not self.report.errors

    def require_ok(self) -> "Content":
        if not self.ok:
            raise ContentError(sorted(set(self.report.errors)))
        return self


class Builder(EffectBuilder):

    # -- kinds -------------------------------------------------------------------------------
    layouts_at: dict[str, Pos]   # where each layout's id is written (set by `run`)
    unloaded_factions: set[str] = set()   # factions of expansions left out of this load (by `load_content`)

    def collect_ids(self, chosen: list[Document]) -> None:
        ids: dict[str, set[str]] = {k: set() for k in ("kind", "faction", "area", "spellbook", "ability", "token")}
        ids["class"] = set(CLASSES)
        ids["result"] = set(RESULTS)
        from ..content.schema_check import _validators  # noqa: F401  (schemas loaded once)
        for doc in chosen:
            try:
                self._collect_doc(doc, ids)
            except MALFORMED:
                if id(doc) not in self.broken:
                    raise   # pragma: no cover - a valid document always has its ids
        self.ids = ids

    def _collect_doc(self, doc: Document, ids: dict[str, set[str]]) -> None:
        """The ids one document defines, into `ids` (a document with schema errors: those it has)."""
        d = doc.data
        k = doc.kind
        if k == "faction":
            ids["faction"].add(d["id"])
            for u in d.get("units", []) + d.get("great-old-ones", []):
                ids["kind"].add(u["id"])
            for s in d.get("spellbooks", []):
                ids["spellbook"].add(s["id"])
                ids["ability"].update(a["id"] for a in s.get("abilities", []))
            ids["ability"].update(a["id"] for a in d.get("abilities", []))
            for u in d.get("units", []) + d.get("great-old-ones", []):
                ids["ability"].update(a["id"] for a in u.get("abilities", []))
            ids["token"].update(t["id"] for t in d.get("tokens", []))
        elif k == "map":
            for part in d.get("parts", {}).values():
                ids["area"].update(a["id"] for a in part.get("areas", []))
        elif k == "neutral-unit":
            ids["kind"].add(d["unit"]["id"])
            ids["ability"].update(a["id"] for a in d["unit"].get("abilities", []) + d.get("abilities", []))
        elif k == "neutral-spellbook":
            ids["spellbook"].add(d["spellbook"]["id"])
            ids["ability"].update(a["id"] for a in d["spellbook"].get("abilities", []))
        elif k == "loyalty-card":
            ids["kind"].add(d["great-old-one"]["id"])
            ids["faction"].add(d["id"])
            ids["ability"].update(a["id"] for a in d["great-old-one"].get("abilities", []))
            for s in d.get("spellbooks", []):
                ids["spellbook"].add(s["id"])
                ids["ability"].update(a["id"] for a in s.get("abilities", []))
        elif k == "token":
            ids["token"].add(d["id"])

    def faction(self, doc: Document) -> None:
        d = doc.data
        fid = d["id"]
        units: dict[str, UnitType] = {}
        for i, u in enumerate(d["units"]):
            if u["id"] in units:
                self.report.error(doc.pos("units", i, "id"), "duplicate-id", f"unit '{u['id']}' defined twice")
            units[u["id"]] = self.unit(doc, ("units", i), u, fid)
        for i, g in enumerate(d["great-old-ones"]):
            if g["id"] in units:
                self.report.error(doc.pos("great-old-ones", i, "id"), "duplicate-id", f"unit '{g['id']}' defined twice")
            units[g["id"]] = self.unit(doc, ("great-old-ones", i), g, fid, "great-old-one")
        books = {}
        for i, s in enumerate(d["spellbooks"]):
            books[s["id"]] = self.spellbook(doc, ("spellbooks", i), s, fid)
        reqs = tuple(self.requirement(doc, ("requirements", i), r, fid) for i, r in enumerate(d["requirements"]))
        req_ids = {r.id for r in reqs}
        for i, r in enumerate(reqs):
            for j, other in enumerate(r.together):
                if other not in req_ids:
                    self.report.error(doc.pos("requirements", i, "together", j), "unknown-reference",
                                      f"unknown requirement '{other}'{did_you_mean(other, req_ids)}")
        if len(reqs) != len(books):
            self.report.warning(doc.pos("requirements"), "spellbook-count",
                                f"{len(reqs)} requirements but {len(books)} spellbooks")
        abilities = tuple(self.ability(doc, ("abilities", i), a, fid, "faction") for i, a in enumerate(d.get("abilities", [])))
        for i, t in enumerate(d.get("tokens", [])):
            self._limit(doc, ("tokens", i, "count"), t.get("count"), MAX_COUNT, "count of tokens")
        setup = {"power": 8, "cultists": 6, "gate": True, **d.get("setup", {})}
        self._limit(doc, ("setup", "cultists"), setup.get("cultists"), MAX_COUNT, "cultists placed")
        if setup["cultists"] and not any(u.cls == "cultist" for u in units.values()):
            self.report.error(doc.pos("setup"), "setup", "setup places cultists but the faction has no cultist unit")
        known = self.ids["faction"] | self.unloaded_factions
        for i, other in enumerate(setup.get("shares-figures-with", [])):
            if other not in known:
                self.report.error(doc.pos("setup", "shares-figures-with", i), "unknown-reference",
                                  f"unknown faction '{other}'{did_you_mean(other, known)}")
        self.model.factions[fid] = Faction(fid, d["name"], setup, abilities, units, reqs, books,
                                           {t["id"]: t["count"] for t in d.get("tokens", [])}, doc.pos(),
                                           doc.expansion, d.get("colour"))
        if d.get("status") == "incomplete":
            self.report.unknown(doc.pos("status"), "incomplete", f"faction '{fid}' is incomplete: {d.get('incomplete-reason', 'no reason given')}",
                                d.get("reading"))

    def spellbook(self, doc: Document, key: tuple[object, ...], s: dict[str, Any], owner: str) -> Spellbook:
        if s.get("unknown"):
            self.report.unknown(doc.pos(*key), "unknown-value", f"spellbook '{s['name']}' is not fully known: {s['unknown']}",
                                s.get("reading"))
        abilities = tuple(self.ability(doc, key + ("abilities", i), a, owner, f"spellbook:{s['id']}")
                          for i, a in enumerate(s.get("abilities", [])))
        return Spellbook(f"{owner}/{s['id']}", s["id"], s["name"], owner, s.get("text", ""), abilities,
                         doc.pos(*key), s.get("unknown"))

    def requirement(self, doc: Document, key: tuple[object, ...], r: dict[str, Any], owner: str) -> Requirement:
        act = r.get("action")
        when = "action" if act is not None else r.get("when", "state")
        if r.get("unknown"):
            self.report.unknown(doc.pos(*key), "unknown-value", f"requirement '{r['id']}' is unknown: {r['unknown']}",
                                r.get("reading"))
        elif act is None and "condition" not in r:
            self.report.error(doc.pos(*key), "requirement", "a requirement needs a 'condition' or an 'action'")
        if when == REMOVAL_WINDOW:   # it opens inside an effect under way: no requirement is checked there
            self.report.error(doc.pos(*key, "when"), "requirement", f"a requirement cannot be checked at '{when}' "
                              "(inside the effect under way); use the window after it, or unit-captured")
        ak = key + ("action",)
        # the engine checks a requirement with an event only in its 'when' window; a state or action
        # requirement, the action it offers and the effect of earning it run with no event
        no_window = {"event": "this requirement has no 'when' window"}
        no_event = {"event": "a requirement's action and its effect on earning run outside any window"}
        cond_unbound, cond_event = (no_window, None) if when in ("state", "action") else self._window_event(when)
        return Requirement(
            f"{owner}/{r['id']}", r["id"], r["text"], when,
            self.expr(doc, key + ("condition",), r.get("condition"), cond_unbound, cond_event),
            self.expr(doc, ak + ("cost",), act.get("cost", 0), no_event) if act is not None else None,
            self.expr(doc, ak + ("condition",), act.get("condition"), no_event) if act is not None else None,
            self.program(doc, ak + ("effect",), act.get("effect"), no_event,
                         guard=act.get("condition")) if act is not None else None,
            bool(act.get("unlimited", False)) if act is not None else False,
            self.program(doc, key + ("effect",), r.get("effect"), no_event),
            tuple(r.get("together", [])), doc.pos(*key), self.expr_inputs(r.get("condition")),
            self.expr_literals(r.get("condition")),
            self.expr_distance(doc, key + ("condition",), r.get("condition"), cond_unbound) if when in ("state", "action") else None)

    def map(self, doc: Document) -> None:
        d = doc.data
        parts = d["parts"]
        incomplete = d.get("incomplete-reason", "marked incomplete") if d.get("status") == "incomplete" else None
        if incomplete:
            self.report.unknown(doc.pos("status"), "incomplete-map", f"map '{d['id']}' is incomplete: {incomplete}",
                                d.get("reading"))
        for pname, part in parts.items():
            for ai, a in enumerate(part.get("areas", [])):
                for si, f in enumerate(a.get("starts", [])):
                    if f not in self.ids["faction"] and f not in self.unloaded_factions:
                        self.report.error(doc.pos("parts", pname, "areas", ai, "starts", si), "unknown-reference",
                                          f"unknown faction '{f}'{did_you_mean(f, self.ids['faction'] | self.unloaded_factions)}")
        for li, lay in enumerate(d["layouts"]):
            areas: dict[str, Area] = {}
            adjacent: dict[str, set[str]] = {}
            origin: dict[tuple[str, str], Pos] = {}
            for pi, pname in enumerate(lay["parts"]):
                if pname not in parts:
                    self.report.error(doc.pos("layouts", li, "parts", pi), "unknown-reference",
                                      f"unknown map part '{pname}'{did_you_mean(pname, parts)}")
                    continue
                part = parts[pname]
                for ai, a in enumerate(part.get("areas", [])):
                    if a["id"] in areas:
                        self.report.error(doc.pos("parts", pname, "areas", ai, "id"), "duplicate-id",
                                          f"area '{a['id']}' appears twice in layout '{lay['id']}'")
                    areas[a["id"]] = Area(a["id"], a["name"], a["terrain"] == "ocean", a.get("glyph"),
                                          tuple(f for f in a.get("starts", []) if f not in self.unloaded_factions),
                                          tuple(a.get("symbols", [])),
                                          _point(a.get("position")),
                                          tuple(_point(q) for q in a["shape"]) if a.get("shape") else None)
                for src, dsts in part.get("adjacent", {}).items():
                    for di, dst in enumerate(dsts):
                        adjacent.setdefault(src, set()).add(dst)
                        origin.setdefault((src, dst), doc.pos("parts", pname, "adjacent", src, di))
                        origin.setdefault((src, "@"), doc.positions.key_of(("parts", pname, "adjacent", src)))
            for (src, dst), pos in sorted(origin.items()):
                if dst == "@":
                    if src not in areas:
                        self.report.error(pos, "unknown-reference",
                                          f"layout '{lay['id']}': unknown area '{src}'{did_you_mean(src, areas)}")
                    continue
                if dst not in areas:
                    self.report.error(pos, "unknown-reference",
                                      f"layout '{lay['id']}': unknown area '{dst}'{did_you_mean(dst, areas)}")
                elif src == dst:
                    self.report.error(pos, "adjacency", f"area '{src}' is listed as adjacent to itself")
                elif src not in adjacent.get(dst, set()):
                    self.report.error(pos, "adjacency-asymmetric",
                                      f"layout '{lay['id']}': '{src}' lists '{dst}' as adjacent, but '{dst}' does not list '{src}'")
            if areas and not incomplete:
                start = next(iter(sorted(areas)))
                seen, todo = {start}, deque([start])
                while todo:
                    for n in adjacent.get(todo.popleft(), ()):
                        if n in areas and n not in seen:
                            seen.add(n)
                            todo.append(n)
                missing = sorted(set(areas) - seen)
                if missing:
                    self.report.error(doc.pos("layouts", li), "adjacency-disconnected",
                                      f"layout '{lay['id']}' is not connected: cannot reach {', '.join(missing)} from '{start}'")
            if lay["id"] in self.model.layouts:
                self.report.error(doc.pos("layouts", li, "id"), "duplicate-id", f"layout '{lay['id']}' defined twice")
            self.layouts_at[lay["id"]] = doc.pos("layouts", li, "id")
            self.model.layouts[lay["id"]] = Layout(
                lay["id"], d["id"], lay.get("name", lay["id"]), tuple(lay["players"]), areas,
                {a: tuple(sorted(n for n in adjacent.get(a, ()) if n in areas)) for a in areas},
                incomplete, bool(lay.get("recommended", False)), d.get("drawing"))

    def rulesets(self, docs: list[Document]) -> None:
        by_id = {doc.id: doc for doc in docs}
        for doc in docs:
            chain, cur = [], doc
            while cur is not None:
                if cur in chain:
                    self.report.error(cur.pos("extends"), "extends-cycle",
                                      f"ruleset '{cur.id}' extends itself through {' -> '.join(c.id or '?' for c in chain)}")
                    break
                chain.append(cur)
                parent = cur.data.get("extends")
                if parent is None:
                    break
                if parent not in by_id:
                    self.report.error(cur.pos("extends"), "unknown-reference",
                                      f"unknown ruleset '{parent}'{did_you_mean(parent, by_id)}")
                    break
                cur = by_id[parent]
            for n, count in (doc.data.get("elder-signs") or {}).items():
                self._limit(doc, ("elder-signs", n), count, MAX_COUNT, f"elder signs worth {n}")
            self._limit(doc, ("victory", "max-rounds"), (doc.data.get("victory") or {}).get("max-rounds"),
                        MAX_ROUNDS, "max-rounds")
            settings: dict[str, Any] = {}
            abilities: list[Ability] = []
            for layer in reversed(chain):
                for k, v in layer.data.items():
                    if k in ("kind", "extends", "abilities"):
                        continue
                    if isinstance(v, dict) and isinstance(settings.get(k), dict):
                        settings[k] = {**settings[k], **v}
                    else:
                        settings[k] = v
                abilities.extend(self.ability(layer, ("abilities", i), a, "", "ruleset")
                                 for i, a in enumerate(layer.data.get("abilities", [])))
            for count, layout in settings.get("map", {}).items():
                if layout not in self.model.layouts:
                    self.report.error(doc.pos("map", count), "unknown-reference",
                                      f"unknown map layout '{layout}'{did_you_mean(layout, self.model.layouts)}")
            self._player_counts(doc, chain, settings)
            self.model.rulesets[doc.id or "?"] = Ruleset(doc.id or "?", doc.data["name"], settings,
                                                         tuple(abilities), doc.pos())

    def _player_counts(self, doc: Document, chain: list[Document], settings: dict[str, Any]) -> None:
        """Every allowed player count needs a map layout and a ritual track; default factions must fit their count."""
        rid = doc.id or "?"
        where = next((layer for layer in chain if "players" in layer.data), doc)
        tracks = settings.get("ritual-track", {})
        for i, n in enumerate(settings.get("players", [])):
            if not settings.get("map", {}).get(str(n)):
                self.report.error(where.pos("players", i), "player-count",
                                  f"ruleset '{rid}' allows {n} players but its 'map' has no layout for \"{n}\"")
            if not (tracks.get(str(n)) or tracks.get("default")):
                self.report.error(where.pos("players", i), "player-count",
                                  f"ruleset '{rid}' allows {n} players but its 'ritual-track' has no track for \"{n}\"")
        # a count without default factions is fine: `necro play` then seats the first base factions
        # by id; counts a parent ruleset lists for its own players are inherited and unused
        for count, factions in doc.data.get("default-factions", {}).items():
            if count.isdigit() and len(factions) != int(count):
                self.report.error(doc.pos("default-factions", count), "player-count",
                                  f"ruleset '{rid}': the default factions for {count} players name {len(factions)}")
            for j, f in enumerate(factions):
                if f not in self.ids["faction"]:
                    self.report.error(doc.pos("default-factions", count, j), "unknown-reference",
                                      f"unknown faction '{f}'{did_you_mean(f, self.ids['faction'])}")

    def neutral(self, doc: Document) -> None:
        d = doc.data
        if doc.kind == "neutral-unit":
            t = self.unit(doc, ("unit",), d["unit"], "")
            self.model.neutral_units[t.id] = t
            acquire = self.ability(doc, ("acquire",), d["acquire"], "", f"neutral:{d['id']}") if "acquire" in d else None
            abilities = tuple(self.ability(doc, ("abilities", i), a, "", f"neutral:{d['id']}")
                              for i, a in enumerate(d.get("abilities", [])))
            # a card is playable only when every value it needs is known or interpreted
            unknown = [f"{t.name}'s {f} is unknown" for f in t.unknown]
            unknown += [f"{a.name}: {a.unknown}" for a in (acquire, *abilities, *t.abilities) if a is not None and a.unknown]
            self.model.neutral_cards[d["id"]] = NeutralCard(d["id"], d["name"], t.id, acquire, abilities,
                                                            tuple(unknown), doc.pos())
        elif doc.kind == "neutral-spellbook":
            self.model.neutral_spellbooks[d["id"]] = self.spellbook(doc, ("spellbook",), d["spellbook"], "")
        elif doc.kind == "loyalty-card":
            g = self.unit(doc, ("great-old-one",), d["great-old-one"], d["id"], "great-old-one")
            for f in self.model.factions.values():
                if g.id in f.units:   # the engine tells an Independent's figure from a faction's by its kind
                    self.report.error(doc.pos("great-old-one", "id"), "duplicate-id",
                                      f"unit '{g.id}' is also a unit of faction '{f.id}'; give the Independent its own id")
            books = {s["id"]: self.spellbook(doc, ("spellbooks", i), s, d["id"]) for i, s in enumerate(d.get("spellbooks", []))}
            reqs = tuple(self.requirement(doc, ("requirements", i), r, d["id"]) for i, r in enumerate(d.get("requirements", [])))
            self.model.loyalty_cards[d["id"]] = Faction(d["id"], d["name"], {}, (), {g.id: g}, reqs, books, {},
                                                        doc.pos(), doc.expansion)
            self.model.loyalty_unknowns[d["id"]] = tuple(unknowns_under(d, d["id"]))
            if "counterpart" in d:
                self.model.loyalty_counterparts[d["id"]] = d["counterpart"]
                if d["counterpart"] not in self.ids["faction"]:
                    self.report.error(doc.pos("counterpart"), "unknown-reference",
                                      f"unknown faction '{d['counterpart']}'{did_you_mean(d['counterpart'], self.ids['faction'])}")
        elif doc.kind == "token":
            self._limit(doc, ("count",), d.get("count"), MAX_COUNT, "count of tokens")
            self.model.tokens[d["id"]] = int(d.get("count", 0))

    def _guarded(self, doc: Document, step: Any, *args: Any, docs: list[Document] | None = None) -> None:
        """Run one document's step (or the step of `docs`); a file too deep for the stack is a finding
        on that file, and the other files are still checked (effect text has its own depth limit;
        this is the net)."""
        try:
            step(*args)
        except MALFORMED:
            if not any(id(d) in self.broken for d in docs or [doc]):
                raise
            # a document with schema errors is checked as far as its shape allows (the schema
            # errors say what is wrong with the rest)
        except RecursionError:
            self.report.error(doc.pos(), "too-deep", "this file is nested too deeply to check "
                              "(Python's recursion limit was reached while compiling it)")

    def run(self) -> ContentModel:
        self.layouts_at = {}
        # a document with schema errors is still checked where its shape allows, and the ids it
        # defines are known (no "unknown reference" elsewhere because of its mistake)
        self.broken = {id(doc) for doc in self.docs if not schema_check.check(doc, self.report)}
        chosen = self._layer([doc for doc in self.docs if id(doc) not in self.broken or _buildable(doc)])
        self.collect_ids(chosen)
        for doc in chosen:
            if doc.kind == "faction":
                self._guarded(doc, self.faction, doc)
        for doc in chosen:
            if doc.kind == "map":
                self._guarded(doc, self.map, doc)
            elif doc.kind in ("neutral-unit", "neutral-spellbook", "loyalty-card", "token"):
                self._guarded(doc, self.neutral, doc)
        rulesets = [doc for doc in chosen if doc.kind == "ruleset"]
        if rulesets:
            self._guarded(rulesets[0], self.rulesets, rulesets, docs=rulesets)
        self.formulas.report_cycles(self.report)
        six_spellbooks(self.model, self.report)
        try:
            check_start_areas(self.model, self.report, self.layouts_at, rulesets)
        except MALFORMED:
            if not self.broken:
                raise   # pragma: no cover - checked documents make a well-formed model
        self.model.expansions = {doc.expansion for doc in chosen if doc.expansion}
        self.model.tables = build_tables(self.model, self.cost_texts)   # of built records only: never malformed
        return self.model

    def _layer(self, docs: list[Document]) -> list[Document]:
        """Later folders override earlier ones by (kind, id); duplicates in one folder are errors."""
        chosen: dict[tuple[str, str], Document] = {}
        for doc in docs:
            key = (doc.kind or "", doc.id or "")
            prev = chosen.get(key)
            if prev is not None and prev.layer == doc.layer:
                p = prev.pos("id")
                self.report.error(doc.pos("id"), "duplicate-id",
                                  f"{doc.kind} '{doc.id}' is also defined at {p.path}:{p.line}:{p.col}")
                continue
            chosen[key] = doc
        return list(chosen.values())


def _buildable(doc: Document) -> bool:
    """A document with schema errors that still names a known kind and an id (checked further)."""
    return doc.kind in schema_check.KINDS and doc.id is not None


ALL_EXPANSIONS = "all"


def load_content(folders: list[Path] | None = None, *, builtin: bool = True,
                 expansions: list[str] | str = ()) -> Content:
    """Load, check and compile content. `folders` are layered over the built-in tree unless builtin=False.

    `expansions` lists which expansions/<name>/ folders to include: none by default (the base
    game), or "all" (what `necro validate` checks).
    """
    report = Report()
    dirs = ([paths.content_dir()] if builtin else []) + list(folders or [])
    docs = discover(dirs, report)
    if expansions != ALL_EXPANSIONS:
        expansions = list(expansions)
        unknown = set(expansions) - {d.expansion for d in docs if d.expansion}
        for name in sorted(unknown):
            report.error(Pos(str(dirs[0])), "unknown-expansion", f"no expansion named '{name}'")
        left_out = [d for d in docs if d.expansion is not None and d.expansion not in expansions]
        docs = [d for d in docs if d.expansion is None or d.expansion in expansions]
    else:
        left_out = []
    builder = Builder(docs, report)
    # a map's `starts:` may name a faction of an expansion this game leaves out (the printed board
    # carries every faction's glyph): that name is skipped, not an unknown faction
    builder.unloaded_factions = {d.data.get("id") for d in left_out if d.kind == "faction"} - \
        {d.data.get("id") for d in docs if d.kind == "faction"}
    model = builder.run()
    return Content(model, report, dirs, content_digest(docs))



def _point(p: Any) -> Any:
    """A schema-checked [x, y] as a tuple of floats (None stays None)."""
    return (float(p[0]), float(p[1])) if p is not None else None
