"""A compiled effect program: a flat instruction list and the runner that walks it.

The compiler (compiler.py) turns each program into instructions (tuples, opcode first):

- `("let", name, ev)`: bind `ev(ctx)` in the innermost scope;
- `("call", start, where, name, verb)`: run primitive `verb` (`start(ctx)`); its result is bound
  to `name` (None: dropped). `start` returns the result, or a `Suspend` when the primitive must wait
  for an answer or for a procedure of the engine; `resume` turns what it gets into the result;
- `("jump", pc)`, `("unless", cond, pc)` (jump when `cond(ctx)` is false);
- `("push",)`, `("pop",)`: open and close a scope;
- `("for", items, where)`, `("next", name, where, exit)`: a loop over a list (its iterator:
  `[items, index]`, on the machine's iterator stack);
- `("choose", chooser, [(label, when, pc), ...], where, exit)`: a player picks an open option.

Expressions stay closures `ev(ctx) -> value` (they never ask). Everything the runner keeps between
two steps is in a `Machine` (position, iterators, what a paused call waits for) and the context's
scopes, so the engine can keep it as data in an effect frame (engine/effect_frames.py) between a
question and its answer.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Generator

from ..limits import MAX_FOR_ITEMS
from .runtime import LimitError, RuleError, Suspend, resume_with, ticker

Instr = tuple[Any, ...]
CHOSEN = "$choose"   # what a paused `choose` waits for (its data: [[label, pc], ...])


class Program:
    """An effect's instruction list; `key` names it in frames (unique within its content)."""

    __slots__ = ("code", "key", "calls", "choice_lists", "literals", "listed")

    def __init__(self, code: list[Instr], key: str) -> None:
        self.code = code
        self.key = key
        self.calls: frozenset[str] | None = None   # the primitives it names (feasible.py)
        # (choice, the name of the variable holding the list it picks from, or None) (feasible.py)
        self.choice_lists: frozenset[tuple[str, str | None]] | None = None
        # every literal passed to a call, as (call, parameter, value) (ast.literal_arguments; engine/seeking.py)
        self.literals: frozenset[tuple[str, str, object]] = frozenset()
        # its listed choice's list as a compiled expression, with the parts it reads and those
        # written before it (effects/listed_choices.py; engine/feasible.py `listed_answer`), or None
        self.listed: tuple[Any, frozenset[str], frozenset[str]] | None = None

    def __repr__(self) -> str:
        return f"<program {self.key}>"


class Machine:
    """Where a program is: the next instruction, the open loops, what a paused call waits for."""

    __slots__ = ("pc", "iters", "wait")

    def __init__(self, pc: int = 0, iters: list[list[Any]] | None = None, wait: list[Any] | None = None) -> None:
        self.pc = pc
        self.iters = iters if iters is not None else []
        self.wait = wait   # [then, data] while paused at a call or a choose


def locate(exc: LimitError, where: str, ctx: Any, name: str) -> LimitError:
    """A LimitError raised under verb `name`, located at its position and ability (once)."""
    if exc.located:
        return exc
    located = LimitError(f"{where}: {getattr(ctx, 'ability', '') or name}: {exc}")
    located.located = True
    return located


def execute(prog: Program, ctx: Any, m: Machine, value: Any = None) -> Suspend | None:
    """Run from `m` until the program pauses (the Suspend: what it waits for) or ends (None).
    A paused machine is resumed with `value`, the answer or the called procedure's result."""
    code = prog.code
    if m.wait is not None:
        then, data = m.wait
        m.wait = None
        ins = code[m.pc]
        if ins[0] == "choose":
            m.pc = ins[4]   # (the first option labelled `value`, else the exit: a loop, no generator)
            for label, pc in data:
                if label == value:
                    m.pc = pc
                    break
        else:
            try:
                ctx.where = ins[2]
                result = resume_with(then, ctx, data, value)
            except LimitError as exc:
                raise locate(exc, ins[2], ctx, ins[4]) from None
            if isinstance(result, Suspend):
                m.wait = [result.then, result.data]
                return result
            if ins[3] is not None:
                ctx.bind(ins[3], result)
            m.pc += 1
    n = len(code)
    while m.pc < n:
        ins = code[m.pc]
        op = ins[0]
        if op == "let":
            ctx.bind(ins[1], ins[2](ctx))
        elif op == "call":
            result = ins[1](ctx)
            if isinstance(result, Suspend):
                m.wait = [result.then, result.data]
                return result
            if ins[3] is not None:
                ctx.bind(ins[3], result)
        elif op == "jump":
            m.pc = ins[1]
            continue
        elif op == "unless":
            if not ins[1](ctx):
                m.pc = ins[2]
                continue
        elif op == "push":
            ctx.push_scope()
        elif op == "pop":
            ctx.pop_scope()
        elif op == "for":
            items, where = ins[1](ctx), ins[2]
            if not isinstance(items, list):
                raise RuleError(f"{where}: 'for' needs a list, got {type(items).__name__}")
            if len(items) > MAX_FOR_ITEMS:
                raise RuleError(f"{where}: 'for' over {len(items)} items exceeds {MAX_FOR_ITEMS}")
            m.iters.append([list(items), 0])
        elif op == "next":
            it = m.iters[-1]
            if it[1] >= len(it[0]):
                m.iters.pop()
                m.pc = ins[3]
                continue
            item = it[0][it[1]]
            it[1] += 1
            ticker(ctx)(ins[2])
            ctx.push_scope()
            ctx.bind(ins[1], item)
        elif op == "choose":
            player = ins[1](ctx)
            open_ = [[label, pc] for label, when, pc in ins[2] if when is None or when(ctx)]
            if not open_:
                m.pc = ins[4]
                continue
            ask = ctx.ask_option(player, [label for label, _ in open_], ins[3])
            m.wait = [CHOSEN, open_]
            return Suspend(ask, CHOSEN, open_)
        else:  # pragma: no cover
            raise RuleError(f"internal: unknown instruction {op!r}")
        m.pc += 1
    return None


def drive(prog: Program, ctx: Any) -> Generator[Any, Any, None]:
    """Run a program on a live context outside any game flow (tests, tools): yields what it waits
    for (an engine Ask or Call) and takes the answer."""
    m = Machine()
    value = None
    while True:
        r = execute(prog, ctx, m, value)
        if r is None:
            return
        value = yield r.step


def check_limits(where: str, ctx: Any, name: str, bound: dict[str, Any],
                 limits: list[tuple[str, int]]) -> None:
    """A verb's count arguments within their limits (untrusted content)."""
    for arg, limit in limits:
        v = bound.get(arg)
        if isinstance(v, (int, Fraction)) and not isinstance(v, bool) and abs(v) > limit:
            raise RuleError(f"{where}: {getattr(ctx, 'ability', '') or name}: '{name}' {arg} {v} "
                            f"is beyond the limit of {limit}")


def call_start(fn: Callable[..., Any], args: Callable[[Any], dict[str, Any]], where: str, name: str,
               limits: list[tuple[str, int]]) -> Callable[[Any], Any]:
    """The `start` of a call instruction: bind the arguments, check them, run the primitive."""

    def start(ctx: Any) -> Any:
        try:
            bound = args(ctx)
        except (TypeError, ValueError, KeyError) as exc:
            raise RuleError(f"{where}: {name}: {exc}") from None
        check_limits(where, ctx, name, bound, limits)
        ctx.where = where
        try:
            return fn(ctx, **bound)
        except LimitError as exc:
            raise locate(exc, where, ctx, name) from None
    return start
