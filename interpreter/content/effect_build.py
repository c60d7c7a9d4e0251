"""Compiling the effect text inside content documents: expressions and programs with the names bound
where they run, abilities (with modifiers) and unit kinds. `build.Builder` drives it document by document."""
from __future__ import annotations

import functools
from typing import Any

from ..diagnostics import Pos, Report
from ..effects import ast as A
from ..effects.closures import constant
from ..effects.compiler import CompileEnv, Compiler
from ..effects.static import mismatch, static_type
from ..effects.events import EventType
from ..effects.parser import EffectSyntaxError, parse
from ..effects.progress import distance_of
from ..effects.signatures import REGISTRY
from ..effects.guarded_choices import choice_proofs
from ..effects.listed_choices import listed_choice, reads_of_texts
from ..effects.subject_guards import guards_of
from ..effects.primitive_facts import COST_TARGETS, NOTING_CHOICES, READS, REMOVALS
from ..effects.windows import WINDOW_EVENTS, event_type
from ..limits import MAX_COUNT, MAX_DICE
from .files import Document
from .formula_cycles import SUBJECT, FormulaGraph
from .model import Ability, Awaken, ContentModel, Modifier, UnitType

# Names every effect may use; which are bound depends on where it runs (see docs/effect-language.md).
EFFECT_VARS = {"me", "enemy", "enemies", "players", "self", "event", "battle", "subject", "value", "area"}
RESULTS = {"kill", "pain", "eliminate"}
ACTION_WINDOWS = ("action", "unlimited-action")   # an ability used as an action (its condition checked first)
# the queries whose answer paying an action's cost (Power) cannot change (effects/guarded_choices.py)
COST_PROOF_QUERIES = frozenset(q for q, fields in READS.items() if "power" not in fields)
NO_EVENT_MODIFIER = {"event": "a modifier reads 'subject' and 'value', not 'event'",
                     "area": "a modifier reads the area of its 'subject', not 'area'",
                     "self": "a modifier reads its 'subject', not 'self'"}
# `area` is the area an action ability with `where:` ends in, bound in its effect only
NO_AREA = {"area": "only the effect of an action ability with 'where:' has an area (the one it ends in)"}
NO_EVENT_UNIT = {"event": "a unit's cost, combat and awakening run outside any window"}


def _holder_unbound(holder: str) -> dict[str, str]:
    """The names an ability held by `holder` never has: `self` (the unit) outside a unit's own
    abilities, `me` in a ruleset's rules (they have no owner)."""
    out = {} if holder.startswith("unit:") else {"self": "only a unit's own abilities have 'self' (the unit)"}
    if holder == "ruleset":
        out["me"] = "a ruleset's rule has no owner"
    return out


def _expr_tree(value: Any) -> Any:
    """An expression string's syntax tree, for the readers of its parts (`expr_inputs`,
    `expr_literals`, `expr_distance`); None for anything else or bad syntax, which is reported
    where the expression is compiled."""
    if not isinstance(value, str):
        return None
    try:
        return parse(value, start="expr_start")
    except EffectSyntaxError:
        return None


class EffectBuilder:
    """The effect-compiling half of the content builder (ids known, diagnostics into `report`)."""

    def __init__(self, docs: list[Document], report: Report):
        self.docs = docs
        self.report = report
        self.model = ContentModel()
        self.ids: dict[str, set[str]] = {}
        self.ability_at: dict[str, Pos] = {}   # each ability key built so far -> where its id is
        self.formulas = FormulaGraph()          # combat and cost formulas and their reads (cycles: formula_cycles.py)
        # the texts a unit's cost passes through: cost formulas, cost modifiers' (listed_choices.py)
        self.cost_texts: list[Any] = []
        # each distinct YAML node compiled once, however many aliases name it: (file, position of the
        # text, what it is compiled as) -> the compiled value (its findings were reported the first time)
        self.compiled: dict[tuple[Any, ...], Any] = {}


    # -- compile helpers ----------------------------------------------------------------------
    def _env(self, doc: Document, key: tuple[object, ...], unbound: dict[str, str] | None = None,
             event: EventType | None = None) -> CompileEnv:
        return CompileEnv(self.report, lambda line, col: doc.positions.text_pos(key, line, col),
                          self.ids, EFFECT_VARS, "/".join(map(str, key)), unbound=dict(unbound or {}), event=event)

    def _node(self, doc: Document, key: tuple[object, ...], *how: Any) -> tuple[Any, ...] | None:
        """The cache key of the effect text at `key` compiled `how`: the YAML node it was written as
        (an alias shares its anchor's position), None for a value not written as text."""
        info = doc.positions.scalars.get(tuple(key))
        if info is None:
            return None
        return (doc.path, info.pos.line, info.pos.col, *how)

    @staticmethod
    def _window_event(window: str | None) -> tuple[dict[str, str], EventType | None]:
        """What `event` is in effect text run in `window`: unbound (with why) or its declared fields."""
        if window not in WINDOW_EVENTS:
            return {}, None
        etype = event_type(window)
        if etype is None:
            return {"event": f"window '{window}' has no event"}, None
        return {}, etype

    @staticmethod
    def _narrowed(env_event: EventType | None, condition: Any) -> EventType | None:
        """`env_event` where `condition` (effect text) is known to be true."""
        if env_event is None or not isinstance(condition, str):
            return env_event
        try:
            tree = parse(condition, start="expr_start")
        except EffectSyntaxError:
            return env_event
        from ..effects.events import tested_values
        return env_event.narrowed(tested_values(tree, env_event))  # type: ignore[arg-type]

    def expr(self, doc: Document, key: tuple[object, ...], value: Any,
             unbound: dict[str, str] | None = None, event: EventType | None = None,
             returns: str | None = None) -> Any:
        """Compile an int/bool/expression-string value at `key`; None when absent or unknown.
        `returns`: the static type the value must have (a `where:` gives areas), else a type-error."""
        if value is None or isinstance(value, dict):
            return None
        if isinstance(value, (bool, int)):
            wrong = returns and mismatch(returns, "bool" if isinstance(value, bool) else "int")
            if wrong:
                self.report.error(doc.pos(*key), "type-error", wrong)
                return None
            return constant(value)
        node = self._node(doc, key, "expr", _signature(unbound), repr(event), returns)
        if node is not None and node in self.compiled:
            return self.compiled[node]
        compiled = self._compile_expr(doc, key, value, unbound, event, returns)
        if node is not None:
            self.compiled[node] = compiled
        return compiled

    def _compile_expr(self, doc: Document, key: tuple[object, ...], value: Any, unbound: dict[str, str] | None,
                      event: EventType | None, returns: str | None) -> Any:
        try:
            tree = parse(str(value), start="expr_start")
        except EffectSyntaxError as exc:
            self.report.error(doc.positions.text_pos(key, exc.line, exc.col), "effect-syntax", exc.message)
            return None
        env = self._env(doc, key, unbound, event)
        wrong = returns and mismatch(returns, static_type(tree))  # type: ignore[arg-type]
        if wrong:
            env.error(tree, "type-error", wrong)  # type: ignore[arg-type]
            return None
        return Compiler(env).expr(tree, env)  # type: ignore[arg-type]

    @staticmethod
    def expr_inputs(value: Any) -> Any:
        """`ast.expression_inputs` of an expression string with its `ast.call_arguments` (None for
        anything else, or bad syntax: that is reported where the expression is compiled)."""
        tree = _expr_tree(value)
        if tree is None:
            return None
        found = A.expression_inputs(tree)
        if found is None:
            return None
        return (*found, A.call_arguments(tree, _parameters()))

    @staticmethod
    def expr_literals(value: Any) -> frozenset[tuple[str, str, object]]:
        """`ast.literal_arguments` of an expression string (empty for anything else, or bad syntax:
        that is reported where the expression is compiled)."""
        tree = _expr_tree(value)
        return frozenset() if tree is None else A.literal_arguments(tree, _parameters())

    def expr_distance(self, doc: Document, key: tuple[object, ...], value: Any, unbound: dict[str, str] | None) -> Any:
        """How far a condition string is from holding (`progress.distance_of`), its parts compiled
        as the condition is; None for anything else, or bad syntax (reported where it is compiled).
        Its parts report to a report of their own: the condition's problems are reported once."""
        tree = _expr_tree(value)
        if tree is None:
            return None
        env = self._env(doc, key, unbound)
        env = CompileEnv(Report(), env.locate, env.ids, env.variables, env.logical, unbound=env.unbound)
        return distance_of(tree, lambda node: Compiler(env).expr(node, env))  # type: ignore[arg-type]

    def program(self, doc: Document, key: tuple[object, ...], text: Any, unbound: dict[str, str] | None = None,
                event: EventType | None = None, guard: Any = None, where: Any = None) -> Any:
        """A compiled effect program. `guard` and `where`: the texts of the condition checked before
        it runs as an action (an ability's, a requirement action's) and of the areas the action may
        end in: the single choices they prove to have an option need no dry run
        (effects/guarded_choices.py)."""
        if text is None:
            return None
        node = self._node(doc, key, "program", _signature(unbound), repr(event), guard, where)
        if node is not None and node in self.compiled:
            return self.compiled[node]
        compiled = self._compile_program(doc, key, text, unbound, event, guard, where)
        if node is not None:
            self.compiled[node] = compiled
        return compiled

    def _compile_program(self, doc: Document, key: tuple[object, ...], text: Any, unbound: dict[str, str] | None,
                         event: EventType | None, guard: Any, where: Any) -> Any:
        try:
            tree = parse(str(text))
        except EffectSyntaxError as exc:
            self.report.error(doc.positions.text_pos(key, exc.line, exc.col), "effect-syntax", exc.message)
            return None
        assert isinstance(tree, A.Program)
        env = self._env(doc, key, unbound, event)
        run = Compiler(env).program(tree, env)
        run.calls = A.call_names(tree)   # type: ignore[attr-defined]  (what a dry run may skip: feasible.py)
        lists = _choice_lists()
        proven, past_removals = self._proven(tree, guard, where, lists)
        found = listed_choice(tree, lists, NOTING_CHOICES, proven | past_removals, _pure_calls())
        if found is not None:   # (compiled again to report nothing twice)
            scratch = CompileEnv(Report(), env.locate, env.ids, env.variables, env.logical, unbound=env.unbound)
            run.listed = (Compiler(scratch).expr(found[1], scratch), found[2], found[3])  # type: ignore[arg-type]
        run.choice_lists = A.argument_names(tree, lists, proven, past_removals,
                                            {id(found[0])} if found is not None else set())
        run.literals = A.literal_arguments(tree, _parameters())
        return run

    @classmethod
    def _modifier_inputs(cls, when: Any, value: Any) -> Any:
        """`expr_inputs` of a modifier's `when` and `value` together (a number or no `when` reads
        nothing); None when either is not known."""
        found = []
        for text in (when, value):
            if text is None or type(text) in (int, float):
                continue
            inputs = cls.expr_inputs(text) if isinstance(text, str) else None
            if inputs is None:
                return None
            found.append(inputs)
        return tuple(frozenset().union(*(f[i] for f in found)) for i in range(4))

    @staticmethod
    def _guards(when: Any) -> tuple[tuple[str, str, Any], ...]:
        """A modifier's subject guards (effects/subject_guards.py); none for bad syntax (reported
        where `when` is compiled)."""
        if not isinstance(when, str):
            return ()
        try:
            return guards_of(parse(when, start="expr_start"))
        except EffectSyntaxError:
            return ()

    @staticmethod
    def _proven(tree: A.Program, guard: Any, where: Any, lists: dict[str, tuple[int, str]]) -> tuple[set[int], set[int]]:
        """The choices proven to have an option, and those proven so past a removal of a unit."""
        try:
            cond = parse(guard, start="expr_start") if isinstance(guard, str) else None
            areas = parse(where, start="expr_start") if isinstance(where, str) else None
        except EffectSyntaxError:
            return set(), set()   # reported where the condition or `where` is compiled
        return choice_proofs(tree, cond, lists, NOTING_CHOICES, COST_PROOF_QUERIES, areas, REMOVALS, _pure_calls())

    def unknown_of(self, doc: Document, key: tuple[object, ...], value: Any, what: str) -> str | None:
        """Warn about an unknown value; return its reason unless the content names an interpretation."""
        if isinstance(value, dict) and "unknown" in value:
            if "interpretation" in value:
                self.report.unknown(doc.pos(*key), "unknown-value",
                                    f"{what} is unknown: {value['unknown']} (played as {value['interpretation']!r})",
                                    value.get("reading"))
                return None
            self.report.unknown(doc.pos(*key), "unknown-value", f"{what} is unknown: {value['unknown']}",
                                value.get("reading"))
            return str(value["unknown"])
        return None

    @staticmethod
    def _known(value: Any) -> Any:
        """An {unknown, interpretation} value's interpretation (None without one); other values as they are."""
        return value.get("interpretation") if isinstance(value, dict) else value

    def _limit(self, doc: Document, key: tuple[object, ...], value: Any, limit: int, what: str) -> None:
        """A whole number in content beyond its budget (limits.py) is a finding at its position."""
        if isinstance(value, int) and not isinstance(value, bool) and value > limit:
            self.report.error(doc.pos(*key), "limit", f"{what} {value} is beyond the limit of {limit}")

    # -- abilities ---------------------------------------------------------------------------
    def ability(self, doc: Document, key: tuple[object, ...], d: dict[str, Any], owner: str, holder: str) -> Ability:
        akey = f"{owner or doc.id}/{d['id']}"
        at = doc.pos(*key, "id")
        first = self.ability_at.setdefault(akey, at)
        if first != at:
            self.report.error(at, "duplicate-id",
                              f"ability id '{d['id']}' is also used at {first.path}:{first.line}:{first.col}: "
                              f"an ability's id must be unique among {owner or doc.id}'s abilities")
        holder_unbound = _holder_unbound(holder)
        in_mod = {**holder_unbound, **NO_EVENT_MODIFIER}
        mods = []
        for i, m in enumerate(d.get("modifiers", [])):
            mk = key + ("modifiers", i)
            self.unknown_of(doc, mk + ("value",), m["value"], f"modifier '{m['target']}' of {d['name']}")
            val = self._known(m["value"])
            if m["target"] in COST_TARGETS:
                self.cost_texts += [val, m.get("when")]
            if m["target"] == "combat":
                node = ("modifier", akey, str(i))
                for part, text in (("value", val), ("when", m.get("when"))):
                    self.formulas.add(node, f"{d['name']} (a modifier of combat)", doc.pos(*mk, part), text,
                                      {"subject": SUBJECT})
            mods.append(Modifier(m["target"], self.expr(doc, mk + ("when",), m.get("when"), in_mod),
                                 self.expr(doc, mk + ("value",), val, in_mod) or constant(None),
                                 akey, doc.pos(*mk), self._guards(m.get("when")),
                                 self._modifier_inputs(m.get("when"), val)))
        unbound, etype = self._window_event(d.get("window"))
        unbound = {**NO_AREA, **holder_unbound, **unbound}
        in_effect = {k: v for k, v in unbound.items() if k != "area"} \
            if d["window"] in ACTION_WINDOWS and "where" in d else unbound
        unknown = d.get("unknown")
        if unknown:
            self.report.unknown(doc.pos(*key), "unknown-value", f"ability '{d['name']}' is not fully known: {unknown}",
                                d.get("reading"))
        cost_unknown = self.unknown_of(doc, key + ("cost",), d.get("cost"), f"cost of {d['name']}")
        if "where" in d and d["window"] not in ("action", "unlimited-action"):
            self.report.error(doc.pos(*key, "where"), "misplaced-where",
                              f"'where' (the areas an action ends in) is for action abilities; '{d['id']}' has window '{d['window']}'")
        return Ability(
            key=akey, id=d["id"], name=d["name"], owner=owner, holder=holder, window=d["window"],
            cost=self.expr(doc, key + ("cost",), self._known(d.get("cost")), unbound, etype),
            condition=self.expr(doc, key + ("condition",), d.get("condition"), unbound, etype),
            effect=self.program(doc, key + ("effect",), d.get("effect"), in_effect,
                                self._narrowed(etype, d.get("condition")),
                                **({"guard": d.get("condition"), "where": d.get("where")}
                                   if d["window"] in ACTION_WINDOWS else {})),
            optional=d.get("optional", True), once=d.get("once"), anywhere=d.get("anywhere", False),
            modifiers=tuple(mods), text=d.get("text", ""), pos=doc.pos(*key), bookkeeping=d.get("bookkeeping", False),
            where=self.expr(doc, key + ("where",), d.get("where"), NO_AREA, returns="areas"),
            # an unknown ability with an interpretation plays as written (the effect is the reading)
            unknown=(None if d.get("interpretation") else unknown) or cost_unknown)

    def unit(self, doc: Document, key: tuple[object, ...], d: dict[str, Any], faction: str, cls: str | None = None) -> UnitType:
        unknown = []
        for f in ("cost", "combat"):
            # an unknown value with an interpretation plays as interpreted (the warning stays)
            if self.unknown_of(doc, key + (f,), d.get(f), f"{f} of {d['name']}") is not None:
                unknown.append(f)
        def value(f: str) -> Any:
            return self.expr(doc, key + (f,), self._known(d.get(f)), NO_EVENT_UNIT) or constant(None)
        self._limit(doc, key + ("combat",), self._known(d.get("combat")), MAX_DICE, "combat (dice rolled)")
        self.cost_texts.append(self._known(d.get("cost")))
        for f in ("combat", "cost"):
            self.formulas.add((f, d["id"]), f"the {f} of {d['name']}", doc.pos(*key, f), self._known(d.get(f)),
                              {"self": d["id"]})
        self._limit(doc, key + ("count",), d.get("count"), MAX_COUNT, "count of units")
        opts = d.get("cost-options")
        if opts is None and isinstance(d.get("cost"), int) and not isinstance(d.get("cost"), bool):
            opts = [d["cost"]]
        awaken = None
        if "awaken" in d:
            a = d["awaken"]
            ak = key + ("awaken",)
            awaken = Awaken(self.expr(doc, ak + ("condition",), a.get("condition"), NO_EVENT_UNIT),
                            self.expr(doc, ak + ("where",), a["where"], NO_EVENT_UNIT, returns="areas") or constant([]),
                            self.program(doc, ak + ("effect",), a.get("effect"), NO_EVENT_UNIT),
                            bool(a.get("replace-gate", False)), a.get("text", ""))
        abilities = tuple(self.ability(doc, key + ("abilities", i), ab, faction, f"unit:{d['id']}")
                          for i, ab in enumerate(d.get("abilities", [])))
        return UnitType(faction, d["id"], d["name"], cls or d["class"], int(d.get("count", 1)),
                        value("cost"), tuple(opts) if opts else None, value("combat"), abilities, awaken,
                        doc.pos(*key), tuple(unknown))


def _signature(unbound: dict[str, str] | None) -> tuple[tuple[str, str], ...]:
    """The names unbound where a text is compiled, as a hashable value."""
    return tuple(sorted((unbound or {}).items()))


def _parameters() -> dict[str, list[str]]:
    """Every primitive -> its parameters' names in order."""
    return _registry_tables(len(REGISTRY.items))[0]


def _choice_lists() -> dict[str, tuple[int, str]]:
    """Every choice primitive -> its second parameter (the list it picks from), for `argument_names`."""
    return _registry_tables(len(REGISTRY.items))[1]


def _pure_calls() -> frozenset[str]:
    """The calls that change nothing a list of units, areas or gates reads: every query, and the
    choices that pick from no list (`roll_die`: the generator only), for `proven_choices`."""
    return _registry_tables(len(REGISTRY.items))[2]


@functools.lru_cache(maxsize=4)
def _registry_tables(size: int) -> tuple[dict[str, list[str]], dict[str, tuple[int, str]], frozenset[str]]:
    """The three tables above, read from the registry once while it holds `size` primitives (shared:
    callers do not change them)."""
    prims = [prim for name in REGISTRY.names() if (prim := REGISTRY.get(name)) is not None]
    params = {prim.name: [p.name for p in prim.params] for prim in prims}
    lists = {prim.name: (1, prim.params[1].name) for prim in prims if prim.sort == "choice" and len(prim.params) >= 2}
    pure = frozenset(prim.name for prim in prims
                     if prim.sort == "query" or (prim.sort == "choice" and len(prim.params) < 2))
    return params, lists, pure


def unknowns_under(node: Any, path: str) -> list[str]:
    """Every value under `node` recorded as unknown without an interpretation, as 'path: reason'."""
    out: list[str] = []
    if isinstance(node, dict):
        if isinstance(node.get("unknown"), str) and "interpretation" not in node:
            out.append(f"{path}: {node['unknown']}")
        for k, v in node.items():
            out.extend(unknowns_under(v, f"{path}.{k}"))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(unknowns_under(v, f"{path}[{i}]"))
    return out
