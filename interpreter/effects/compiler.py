"""Compile effect-language syntax trees, once, into Python closures.

Expressions become closures ``ev(ctx) -> value``; programs become instruction lists (a
`Program`, run by program.py) so that a choice anywhere inside an effect pauses it, as data,
until a player answers. Every call is checked against the primitive
registry at compile time: unknown functions, unknown or missing arguments, undefined
variables, and literal ids (units, areas, factions, spellbooks...) that do not exist are
reported with their position. Nothing here evaluates Python source: there is no eval/exec,
and field access works only on game records (dicts), never on Python attributes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Callable, Iterable

from ..diagnostics import Pos, Report, did_you_mean
from ..limits import MAX_COUNT, MAX_FOR_ITEMS
from . import ast as A
from .program import Instr, Program, call_start
from .events import EventType, compared_literals, tested_values
from .registry import ID_TYPES, RECORD_FIELDS, UNIT_FIELDS, Primitive, param_name
from .signatures import REGISTRY
from .closures import args_of, binary_of, by_position, constant, field_of, query_of, var_of
from .loops import comprehension_of, count_upto_of, invariant_of, invariant_read_of, loop_field_of, loop_var_of
from .runtime import COMPARE, LimitError, RuleError, bounded, number, spend_for
from .static import TYPE_WORDS, COUNT_PARAMS, arg_limits, unit_items, compatible, mismatch, quiet_in_loop, static_type

# re-exported: the engine and tests import these from here
__all__ = ["MAX_FOR_ITEMS", "CompileEnv", "Compiler", "LimitError", "RuleError", "compatible", "static_type"]

Ev = Callable[[Any], Any]


@dataclass
class CompileEnv:
    """What a piece of effect text may refer to, and where to report problems."""

    report: Report
    locate: Callable[[int, int], Pos]
    ids: dict[str, set[str]] = field(default_factory=dict)
    variables: set[str] = field(default_factory=set)
    logical: str = ""
    units: frozenset[str] = frozenset({"self"})  # names known to hold a unit (a unit's own 'self', loop variables)
    unbound: dict[str, str] = field(default_factory=dict)  # effect names never bound here -> why
    event: EventType | None = None  # what `event` carries here (None: not known, fields unchecked)
    players: frozenset[str] = frozenset({"me", "enemy"})  # names known to hold a player (unless rebound)

    def error(self, node: A.Node, code: str, message: str) -> None:
        self.report.error(self.locate(node.line, node.col), code, message, self.logical)

    def child(self, extra: Iterable[str], units: Iterable[str] = ()) -> "CompileEnv":
        extra, units = set(extra), set(units)
        return CompileEnv(self.report, self.locate, self.ids, self.variables | extra, self.logical,
                          frozenset((self.units - extra) | units),
                          {k: v for k, v in self.unbound.items() if k not in extra},
                          None if "event" in extra else self.event, self.players - extra)

    def narrow(self, cond: A.Expr | None) -> "CompileEnv":
        """This environment where `cond` is known to be true (it may narrow what `event` carries)."""
        if cond is None or self.event is None:
            return self
        values = tested_values(cond, self.event)
        if values is None:
            return self
        return CompileEnv(self.report, self.locate, self.ids, self.variables, self.logical, self.units,
                          self.unbound, self.event.narrowed(values), self.players)

    def where(self, node: A.Node) -> str:
        p = self.locate(node.line, node.col)
        return f"{p.path}:{p.line}:{p.col}"



# ---- compiler ----------------------------------------------------------------------------
class Compiler:
    def __init__(self, env: CompileEnv):
        self.env = env
        # the comprehensions around the expression being compiled, outermost first: (the name each
        # binds, its cell for the values of the calls hoisted to it, how many)
        self._loops: list[tuple[str, list[Any], list[int]]] = []

    # expressions
    def expr(self, node: A.Expr, env: CompileEnv) -> Ev:
        where = env.where(node)
        if isinstance(node, A.Lit):
            return constant(node.value)   # `.const` tells binary_of a literal operand
        if isinstance(node, A.Var):
            name = node.name
            if name in env.unbound:
                env.error(node, "unbound-name", f"'{name}' is not bound here: {env.unbound[name]}")
            elif name not in env.variables:
                env.error(node, "unknown-name", f"unknown name '{name}'{did_you_mean(name, env.variables)}")
            return loop_var_of(name) if self._in_loop(name) else var_of(name, where)
        if isinstance(node, A.ListLit):
            items = [self.expr(i, env) for i in node.items]
            return lambda ctx: [f(ctx) for f in items]
        if isinstance(node, A.Comprehension):
            source, item, cond, memo, size = self._loop(node, env)
            return comprehension_of(source, node.name, item, cond, memo, size, where)
        if isinstance(node, A.Field):
            obj, name = self.expr(node.obj, env), node.name
            self._check_field(node, env)
            if isinstance(node.obj, A.Var) and self._in_loop(node.obj.name):
                return loop_field_of(node.obj.name, name, where)
            return self._hoisted(node, field_of(obj, name, where), where)
        if isinstance(node, A.Index):
            obj, idx = self.expr(node.obj, env), self.expr(node.index, env)

            def index(ctx: Any) -> Any:
                seq, i = obj(ctx), idx(ctx)
                if not isinstance(seq, list) or not isinstance(i, int) or isinstance(i, bool):
                    raise RuleError(f"{where}: indexing needs a list and a whole number")
                return seq[i] if -len(seq) <= i < len(seq) else None
            return index
        if isinstance(node, A.Unary):
            inner = self.expr(node.operand, env)
            if node.op == "not":
                return lambda ctx: not inner(ctx)
            self._need_number(node.operand, env, "-")
            return lambda ctx: bounded(-number(inner(ctx), where), where)
        if isinstance(node, A.Binary):
            return self._binary(node, env, where)
        if isinstance(node, A.Call):
            prim = self._check_call(node, env)
            if prim is None:
                return lambda ctx: None
            if prim.sort != "query":
                env.error(node, "choice-in-expression",
                          f"'{prim.name}' is a {prim.sort}; use it as a statement or as the value of a 'let'")
                return lambda ctx: None
            return self._hoisted(node, self._query_call(node, prim, env, where), where)
        env.error(node, "bad-expression", "unsupported expression")  # pragma: no cover
        return lambda ctx: None

    def _loop(self, node: A.Comprehension, env: CompileEnv) -> tuple[Ev, Ev, Ev | None, list[Any], int]:
        """A comprehension's parts: its list, item and condition compiled, the cell of the calls
        hoisted to it (`_hoisted`) and how many."""
        source = self.expr(node.source, env)
        inner = env.child([node.name], unit_items(node.name, node.source))
        memo, hoisted = [None], [0]
        self._loops.append((node.name, memo, hoisted))
        try:
            item = self.expr(node.item, inner)
            cond = self.expr(node.cond, inner) if node.cond is not None else None
        finally:
            self._loops.pop()
        return source, item, cond, memo, hoisted[0]

    def _counted(self, node: A.Binary, env: CompileEnv) -> Ev | None:
        """`count([... for x in xs if c]) OP n` (n a whole-number literal, 0 or more) whose item and
        condition are quiet (static.quiet_in_loop): the count stops where the comparison is
        decided, at n for `>=` and `<`, else at n + 1 (loops.count_upto_of); None for any other
        left operand."""
        call, n = node.left, getattr(node.right, "value", None)
        if not (node.op in COMPARE and isinstance(node.right, A.Lit) and n.__class__ is int and n >= 0   # type: ignore[operator]
                and isinstance(call, A.Call) and call.name == "count" and len(call.args) == 1
                and call.args[0].name is None and isinstance(call.args[0].value, A.Comprehension)):
            return None
        comp = call.args[0].value
        units = (env.units - {comp.name}) | set(unit_items(comp.name, comp.source))
        prim = REGISTRY.get("count")
        if prim is None or prim.sort != "query" or not quiet_in_loop(comp, [*(name for name, _, _ in self._loops), comp.name], units):
            return None
        self._check_call(call, env)
        source, _, cond, _, _ = self._loop(comp, env)
        where = env.where(call)
        return self._hoisted(call, count_upto_of(source, comp.name, cond, n if node.op in (">=", "<") else n + 1,
                                                 env.where(comp), where), where)

    def _in_loop(self, name: str) -> bool:
        """Whether `name` is what the innermost comprehension around the expression being compiled
        binds (loops.loop_var_of reads it from the scope on top)."""
        return bool(self._loops) and self._loops[-1][0] == name

    def _hoisted(self, node: A.Call | A.Field, ev: Ev, where: str) -> Ev:
        """A query call inside comprehensions, hoisted to the outermost one around it whose loop and
        inner loops bind no name its plain arguments read (loops.invariant_of): made once per
        evaluation of that comprehension, not once per item; a field read (`self.loc`) likewise,
        when its record reads no such name (loops.invariant_read_of). `ev` itself anywhere else."""
        if not self._loops:
            return ev
        field = isinstance(node, A.Field)
        reads = A.plain_reads([node]) if field else A.plain_call_reads(node)  # type: ignore[arg-type]
        if reads is None:
            return ev
        at = len(self._loops)
        while at > 0 and self._loops[at - 1][0] not in reads:
            at -= 1
        if at == len(self._loops):
            return ev
        _, memo, hoisted = self._loops[at]
        hoisted[0] += 1
        return invariant_read_of(ev, memo, hoisted[0] - 1) if field else invariant_of(ev, memo, hoisted[0] - 1, where)

    @staticmethod
    def _check_field(node: A.Field, env: CompileEnv) -> None:
        """`.name` must be a field some game record has; a unit's fields when the value is known to be a unit."""
        obj = node.obj
        if isinstance(obj, A.Var) and obj.name == "event" and env.event is not None:
            if node.name not in env.event.guaranteed():
                env.error(node, "event-field", env.event.missing(node.name))
            return
        is_unit = static_type(obj) == "unit" or (isinstance(obj, A.Var) and obj.name in env.units)
        known = UNIT_FIELDS if is_unit else RECORD_FIELDS
        if node.name not in known:
            what = "a unit has no field" if is_unit else "no game record has a field"
            env.error(node, "unknown-field", f"{what} '{node.name}'{did_you_mean(node.name, known)}")

    @staticmethod
    def _need_number(side: A.Expr, env: CompileEnv, op: str) -> None:
        """A type-error unless `side` may be a number (a name known to hold a player or a unit is not)."""
        t = static_type(side)
        if isinstance(side, A.Var):
            t = "player" if side.name in env.players else "unit" if side.name in env.units else t
        if not compatible("num", t):
            env.error(side, "type-error", f"'{op}' needs numbers, got {TYPE_WORDS.get(t, t)}")

    def _binary(self, node: A.Binary, env: CompileEnv, where: str) -> Ev:
        if node.op in ("+", "-", "*", "/", "%", "<", "<=", ">", ">="):
            for side in (node.left, node.right):
                self._need_number(side, env, node.op)
        for lit in compared_literals(node, env.event):
            assert env.event is not None
            if lit.value not in env.event.variants:
                env.error(lit, "unknown-reference",
                          f"no {env.event.discriminant} is called '{lit.value}'"
                          f"{did_you_mean(str(lit.value), env.event.variants)}; "
                          f"one of: {', '.join(sorted(env.event.variants))}")
        left, op = self._counted(node, env) or self.expr(node.left, env), node.op
        right = self.expr(node.right, env.narrow(node.left) if op == "and" else env)
        return binary_of(op, left, right, where)

    def _check_call(self, node: A.Call, env: CompileEnv) -> Primitive | None:
        prim = REGISTRY.get(node.name)
        if prim is None:
            env.error(node, "unknown-function",
                      f"unknown function '{node.name}'{did_you_mean(node.name, REGISTRY.names())}")
            for a in node.args:
                self.expr(a.value, env) if not isinstance(a.value, A.Call) or REGISTRY.get(a.value.name) else None
            return None
        positional = [a for a in node.args if a.name is None]
        named = [a for a in node.args if a.name is not None]
        if prim.variadic:
            if named:
                env.error(named[0], "bad-argument", f"'{prim.name}' takes no named arguments")
            return prim
        if len(positional) > len(prim.params):
            env.error(positional[len(prim.params)], "too-many-arguments",
                      f"'{prim.name}' takes at most {len(prim.params)} arguments ({self._signature(prim)})")
        given = {p.name for p, _ in zip(prim.params, positional)}
        for a in named:
            if prim.param(a.name) is None:
                env.error(a, "unknown-argument",
                          f"'{prim.name}' has no argument '{a.name}'"
                          f"{did_you_mean(a.name, [p.name for p in prim.params])} ({self._signature(prim)})")
            elif a.name in given:
                env.error(a, "duplicate-argument", f"argument '{a.name}' given twice")
            given.add(a.name)
        for p in prim.params:
            if p.required and p.name not in given:
                env.error(node, "missing-argument",
                          f"'{prim.name}' needs argument '{p.name}' ({self._signature(prim)})")
        return prim

    @staticmethod
    def _signature(prim: Primitive) -> str:
        parts = [p.name + ("" if p.required else "?") + ": " + p.type for p in prim.params]
        return f"{prim.name}({', '.join(parts)})"

    def _bind_args(self, node: A.Call, prim: Primitive, env: CompileEnv) -> Callable[[Any], dict[str, Any]] | Callable[[Any], list[Any]]:
        if prim.variadic:
            items = [self.expr(a.value, env) for a in node.args]
            return lambda ctx: [f(ctx) for f in items]
        return args_of({param_name(p.name): p.default for p in prim.params if not p.required},
                       [(param_name(n), f) for n, f in self._bound(node, prim, env)])

    def _bound(self, node: A.Call, prim: Primitive, env: CompileEnv) -> list[tuple[str, Ev]]:
        """(parameter, compiled argument) of a call's arguments, positional ones first, in the
        order they are evaluated."""
        bound: list[tuple[str, Ev]] = []
        given = [a for a in node.args if a.name is None]
        for p, a in zip(prim.params, given):
            bound.append((p.name, self._arg(p.type, a, env)))
        for a in node.args:
            if a.name is not None and prim.param(a.name) is not None:
                bound.append((a.name, self._arg(prim.param(a.name).type, a, env)))  # type: ignore[union-attr]
        return bound

    def _arg(self, typ: str, a: A.Arg, env: CompileEnv) -> Ev:
        """Compile one argument; its type and literal ids of an id type are checked."""
        self._check_ids(typ, a.value, env)
        wrong = mismatch(typ, static_type(a.value))
        if wrong:
            env.error(a.value, "type-error", wrong)
        ev = self.expr(a.value, env)
        if typ in ("kind", "kinds"):   # a lent ability's Great Old One may stand for another kind
            many = typ == "kinds"
            return lambda ctx: ctx.kind_arg(ev(ctx), many) if getattr(ctx, "stand_in", None) else ev(ctx)
        return ev

    def _check_ids(self, typ: str, value: A.Expr, env: CompileEnv) -> None:
        if typ == "field":   # a record's field named in text, as `.name` names one
            if isinstance(value, A.Lit) and isinstance(value.value, str) and value.value not in RECORD_FIELDS:
                env.error(value, "unknown-field", f"no game record has a field '{value.value}'"
                                                  f"{did_you_mean(value.value, RECORD_FIELDS)}")
            return
        base = {"kinds": "kind", "abilities": "ability"}.get(typ, typ)
        if base not in ID_TYPES or base not in env.ids:
            return
        lits: list[A.Lit] = []
        if isinstance(value, A.Lit) and isinstance(value.value, str):
            lits = [value]
        elif isinstance(value, A.ListLit):
            lits = [i for i in value.items if isinstance(i, A.Lit) and isinstance(i.value, str)]
        known = env.ids[base]
        for lit in lits:
            if lit.value not in known:
                label = {"kind": "unit kind", "class": "unit class", "result": "battle result"}.get(base, base)
                env.error(lit, "unknown-reference",
                          f"unknown {label} '{lit.value}'{did_you_mean(str(lit.value), known)}")

    def _query_call(self, node: A.Call, prim: Primitive, env: CompileEnv, where: str) -> Ev:
        fn = REGISTRY.implementation(prim.name)
        if prim.variadic:
            items = self._bind_args(node, prim, env)

            def variadic(ctx: Any) -> Any:
                result = fn(ctx, where, *items(ctx))  # type: ignore[misc]
                spend_for(ctx, result, where)
                return result
            return variadic
        names = [p.name for p in prim.params]
        bound = self._bound(node, prim, env)
        given = {n for n, _ in bound}
        if all(p.name in given or not p.required for p in prim.params) and by_position(fn, names):
            # by position, where the implementation's parameters are the declared ones in order
            return query_of(fn, prim.name, where, [None if p.required else p.default for p in prim.params],
                            [(names.index(n), f) for n, f in bound])
        args = args_of({param_name(p.name): p.default for p in prim.params if not p.required},
                       [(param_name(n), f) for n, f in bound])

        def call(ctx: Any) -> Any:
            try:
                result = fn(ctx, **args(ctx))  # type: ignore[arg-type]
            except RuleError:
                raise
            except (TypeError, ValueError, KeyError) as exc:
                raise RuleError(f"{where}: {prim.name}: {exc}") from None
            spend = getattr(type(ctx), "spend", None)   # spend_for, inline: the commonest call of all
            if spend is not None:
                spend(ctx, len(result) + 1 if type(result) is list else 1, where)
            return result
        return call

    def _gen_call(self, node: A.Call, prim: Primitive, env: CompileEnv) -> Callable[[Any], Any]:
        """The start of a call instruction (program.py): the primitive's result or its Suspend."""
        args = self._bind_args(node, prim, env)
        where = env.where(node)
        positional = [(p.name, a) for p, a in zip(prim.params, [a for a in node.args if a.name is None])]
        for name, a in positional + [(a.name, a) for a in node.args if a.name is not None]:
            if name in COUNT_PARAMS and isinstance(a.value, A.Lit) and isinstance(a.value.value, int) \
                    and a.value.value > MAX_COUNT:
                env.error(a.value, "limit", f"'{prim.name}' {name} {a.value.value} is beyond the limit of {MAX_COUNT}")
        return call_start(REGISTRY.implementation(prim.name), args, where, prim.name, arg_limits(prim))  # type: ignore[arg-type]

    # statements: instructions appended to `code` (see program.py)
    def program(self, node: A.Program, env: CompileEnv) -> Program:
        code: list[Instr] = []
        self._body(node, env, code)
        pos = env.locate(node.line, node.col)
        return Program(code, f"{env.logical}@{PurePath(pos.path).name}:{pos.line}:{pos.col}")

    def _body(self, node: A.Program, env: CompileEnv, code: list[Instr]) -> None:
        for stmt in node.body:
            env = self.stmt(stmt, env, code)

    def block(self, node: A.Program, env: CompileEnv, code: list[Instr]) -> None:
        code.append(("push",))
        self._body(node, env.child(()), code)
        code.append(("pop",))

    def stmt(self, node: A.Stmt, env: CompileEnv, code: list[Instr]) -> CompileEnv:
        """Compile one statement into `code`; the environment after it."""
        if isinstance(node, A.Nothing):
            return env
        if isinstance(node, A.Let):
            name = node.name
            after = env.child([name], [name] if static_type(node.value) == "unit" else [])
            if isinstance(node.value, A.Call) and (p := REGISTRY.get(node.value.name)) and p.sort != "query":
                prim = self._check_call(node.value, env)
                if prim is None:
                    code.append(("let", name, lambda ctx: None))
                else:
                    code.append(("call", self._gen_call(node.value, prim, env), env.where(node.value), name, prim.name))
                return after
            code.append(("let", name, self.expr(node.value, env)))
            return after
        if isinstance(node, A.Do):
            prim = self._check_call(node.call, env)
            if prim is None:
                return env
            if prim.sort == "query":
                env.error(node.call, "useless-query",
                          f"'{prim.name}' only computes a value; bind it with 'let' or use it in a condition")
            code.append(("call", self._gen_call(node.call, prim, env), env.where(node.call), None, prim.name))
            return env
        if isinstance(node, A.If):
            ends: list[int] = []
            for c, b in node.branches:
                test = len(code)
                code.append(("unless", self.expr(c, env), -1))
                self.block(b, env.narrow(c), code)
                ends.append(len(code))
                code.append(("jump", -1))
                code[test] = ("unless", code[test][1], len(code))
            if node.orelse is not None:
                self.block(node.orelse, env, code)
            for at in ends:
                code[at] = ("jump", len(code))
            return env
        if isinstance(node, A.For):
            where = env.where(node)
            code.append(("for", self.expr(node.iterable, env), where))
            top = len(code)
            code.append(("next", node.name, where, -1))
            self.block(node.body, env.child([node.name], unit_items(node.name, node.iterable)), code)
            code.append(("pop",))
            code.append(("jump", top))
            code[top] = ("next", node.name, where, len(code))
            return env
        if isinstance(node, A.Choose):
            chooser = self.expr(node.chooser, env)
            labels = [o.label for o in node.options]
            if len(set(labels)) != len(labels):
                env.error(node, "duplicate-option", "two options have the same label")
            at = len(code)
            code.append(("choose",))
            opts, ends = [], []
            for o in node.options:
                opts.append((o.label, self.expr(o.when, env) if o.when is not None else None, len(code)))
                self.block(o.body, env.narrow(o.when), code)
                ends.append(len(code))
                code.append(("jump", -1))
            for e in ends:
                code[e] = ("jump", len(code))
            code[at] = ("choose", chooser, opts, env.where(node), len(code))
            return env
        env.error(node, "bad-statement", "unsupported statement")  # pragma: no cover
        return env
