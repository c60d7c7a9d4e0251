"""The rule flow as data: a stack of frames in the state, run by one driver.

A frame is a plain dict in `State.flow`, `{"proc": NAME, "at": STEP, ...locals}`. Its procedure
(a `Proc` subclass registered under NAME) reads and writes the state one step at a time; a step
returns what happens next:

- `None`: go on with the same frame (the step set `f["at"]` to the next step);
- `Ask(decision)`: a player must choose; the answer is the `value` of the frame's next step;
- `Call(frame)`: run a child frame; what it returns is the `value` of this frame's next step;
- `Return(value)`: this frame is done.

Every pending decision is then a point the game can be rebuilt from its state alone: the
stack, the pending decision (`State.pending`) and the board are all data.

A step must keep its frame JSON (unit ids, ability keys, players, areas, numbers, lists and
dicts of those), so that a copy of the state is an independent game and a save is the whole game.
"""
from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any, Callable, ClassVar

from ..effects.compiler import RuleError
from .decisions import Decision, new_decision

Game = Any   # the game a procedure runs in (engine/game.py imports this module)


class _Outcome:
    """What a step returns to the driver (below): one field, set when it is made and never changed.
    Plain classes with `__slots__` and their own `__init__` rather than dataclasses: a dataclass's
    generated `__init__` is Python made at import, which the compiled core would run as interpreted
    code at every step (about nine a decision: measured in docs/design/speed-next.md)."""

    __slots__ = ()
    _field = ""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and getattr(self, self._field) == getattr(other, self._field)

    def __hash__(self) -> int:
        return hash((type(self), getattr(self, self._field)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._field}={getattr(self, self._field)!r})"


class Ask(_Outcome):
    """A player must choose: the answer is the `value` of the frame's next step."""

    __slots__ = ("decision",)
    _field = "decision"

    def __init__(self, decision: Decision) -> None:
        self.decision = decision


class Call(_Outcome):
    """Run a child frame; what it returns is the `value` of this frame's next step."""

    __slots__ = ("frame",)
    _field = "frame"

    def __init__(self, frame: dict[str, Any]) -> None:
        self.frame = frame


class Return(_Outcome):
    """This frame is done, returning `value`."""

    __slots__ = ("value",)
    _field = "value"

    def __init__(self, value: Any = None) -> None:
        self.value = value


PROCS: dict[str, "Proc"] = {}
#: per procedure, its steps' functions by step name, each called as `fn(proc, g, f, value)` (the
#: class's plain function: no bound method is made per step); a procedure that overrides `step`
#: has one entry per declared step, its `step` (engine/flow.py's driver, `run`)
STEP_TABLE: dict[str, dict[str, Any]] = {}
#: per procedure, (its instance, its STEP_TABLE entry): the driver's one lookup a step (kept beside
#: the two tables above, which tests and tools read, and made with them)
_RUNS: dict[str, tuple[Any, dict[str, Any]]] = {}


class Proc:
    """A procedure of the rules: named steps over a frame. Subclasses set `name`, declare their steps
    in `STEPS` (in the order the rules take them; a new frame starts at the first) and define one
    method per step, `def STEP(self, g, f, value)`; the frame's `at` names the step to run, and a
    step moves on by setting it (`f["at"] = "next_step"`). The declaration is checked when the
    class is defined (`check_steps`): a jump to an undeclared step fails at import."""

    name: ClassVar[str] = ""
    STEPS: ClassVar[tuple[str, ...]] = ()
    # module functions that run some of its steps' work (typed C functions in the compiled core):
    # their jumps are the class's, checked and listed with its own (`_jumps`)
    BODIES: ClassVar[tuple[Callable[..., Any], ...]] = ()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if cls.name:
            check_steps(cls)
            if cls.name in PROCS:
                raise RuntimeError(f"two procedures are named {cls.name!r}")
            proc = PROCS[cls.name] = cls()
            steps = STEP_TABLE[cls.name] = _step_table(proc)
            _RUNS[cls.name] = (proc, steps)

    def step(self, g: Game, f: dict[str, Any], value: Any) -> Any:
        """Run the step the frame's `at` names (the driver calls the step's method directly through
        STEP_TABLE; a procedure that overrides this runs every frame of its own here)."""
        at = f["at"]
        if at not in self.STEPS:
            raise RuleError(f"internal: procedure {self.name!r} has no step {at!r} (its steps: {', '.join(self.STEPS)})")
        return getattr(self, at)(g, f, value)

    def has_step(self, at: str) -> bool:
        """Whether `at` names one of this procedure's declared steps (a loaded frame is checked with it)."""
        return at in self.STEPS


def _step_table(proc: Proc) -> dict[str, Any]:
    """`proc`'s declared steps, each to the function the driver calls for it (see STEP_TABLE)."""
    cls = type(proc)
    if cls.step is not Proc.step:
        return {at: cls.step for at in cls.STEPS}
    return {at: getattr(cls, at) for at in cls.STEPS}


def check_steps(cls: type[Proc]) -> None:
    """Refuse a procedure whose steps are not declared as `Proc` says: `STEPS` is a non-empty tuple
    of distinct names, each a method of the class (unless the class runs its frames itself, by
    overriding `step`), and every `f["at"] = "..."` in its source names one of them (a computed
    jump is refused too). Without the source (a compiled build) the jumps were checked when the
    source was imported by the tests."""
    where = f"procedure {cls.name!r} ({cls.__qualname__})"
    steps = cls.STEPS
    if not isinstance(steps, tuple) or not steps or not all(isinstance(s, str) for s in steps) \
            or len(set(steps)) != len(steps):
        raise RuntimeError(f"{where}: STEPS must be a non-empty tuple of distinct step names, not {steps!r}")
    if cls.step is Proc.step:
        for s in steps:
            if s.startswith("_") or not callable(getattr(cls, s, None)):
                raise RuntimeError(f"{where}: declared step {s!r} is not a method of the class")
    for line, target in _jumps(cls):
        if target not in steps:
            shown = repr(target) if isinstance(target, str) else "a computed step"
            raise RuntimeError(f"{where}, line {line}: a jump to {shown}, which is not one of its declared "
                               f"steps ({', '.join(steps)})")


def _jumps(cls: type) -> list[tuple[int, object]]:
    """(line, target) of every jump in the source of the class and of the procedure classes it
    inherits steps from, `f["at"] = ...` or `f.update(..., at=...)` (target: the step name, or None
    when it is not a string literal); nothing without the source."""
    return [j for c in cls.__mro__ if c is not Proc and issubclass(c, Proc)
            for src in (c, *c.__dict__.get("BODIES", ())) for j in _own_jumps(src)]


def _own_jumps(src: Any) -> list[tuple[int, object]]:
    """The jumps written in the source of a class or function (see `_jumps`)."""
    try:
        lines, first = inspect.getsourcelines(src)
    except (OSError, TypeError):
        return []
    tree = ast.parse(textwrap.dedent("".join(lines)))
    out: list[tuple[int, object]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update":
            for kw in node.keywords:
                if kw.arg == "at":
                    v = kw.value
                    out.append((first + node.lineno - 1,
                                v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else None))
            continue
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Tuple):
                values = node.value.elts if isinstance(node.value, ast.Tuple) else [None] * len(target.elts)
                pairs = list(zip(target.elts, values))
            else:
                pairs = [(target, node.value)]
            for t, v in pairs:
                if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and t.slice.value == _STEP_KEY:
                    value = v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else None
                    out.append((first + node.lineno - 1, value))
    return out


def frame(proc: str, at: str = "start", **local: Any) -> dict[str, Any]:
    """A new frame of procedure `proc`, starting at step `at`, with its locals. The frames made most
    often (take-action, perform, turn, window, ability, effect) are written as this record's dict
    literal at their call sites, `{"proc": ..., "at": "start", ...locals}`: the keyword call costs
    about 3k instructions in the compiled core (its keywords parsed, two dicts made), a literal
    one dict."""
    return {"proc": proc, "at": at, **local}


# ---- the driver --------------------------------------------------------------------------------
def run(g: Game, value: Any = None, floor: int = 0) -> None:
    """Run the rules from the top frame until a decision is pending or the flow is down to `floor`
    frames (empty: the game is over). `value` is the answer to the pending decision (None to start)."""
    s = g.s
    flow = s.flow
    s.pending = None
    runs = _RUNS
    last = None   # the frame whose procedure `name` and `entry` are (no step changes a frame's "proc")
    name = entry = None
    while len(flow) > floor:
        f = flow[-1]
        if f is not last:   # (a step that returned None goes on in its frame: nothing to look up again)
            name = f["proc"]
        at = f["at"]
        try:
            if f is not last:
                entry = runs[name]   # (one lookup: the procedure and its steps)
                last = f
            steps = entry[1]
            fn = steps.get(at)
            if fn is None:   # an undeclared step: Proc.step names it
                fn = Proc.step
            r = fn(entry[0], g, f, value)
        except ENGINE_BUGS as exc:
            _note_place(exc, g, name, at)
            raise
        value = None
        if r is None:
            continue
        t = type(r)   # (exact: no procedure returns a subclass; then the outcome's own name reads its field)
        if t is Return:
            ret = r
            flow.pop()
            value = ret.value
        elif t is Call:
            call = r
            flow.append(call.frame)
        elif t is Ask:
            asked = r
            d = asked.decision
            options = d.options   # (read once: a field of a Python object is a generic lookup each time)
            if len(options) == 1:
                value = options[0]
                continue
            if not options:
                raise RuleError(f"internal: empty decision for {d.player}: {d.prompt}")
            if g._dry_run_notes is None:   # a dry run's decisions share one budget
                g.steps = 0
            s.pending = g._pending_of = decision_data(d)
            g._pending_obj = d
            return
        else:  # pragma: no cover
            raise RuleError(f"internal: procedure {f['proc']!r} returned {r!r}")


#: what a bug in a step raises (a rule's own failure is a RuleError, which names its ability)
ENGINE_BUGS = (KeyError, TypeError, ValueError, IndexError, AttributeError, ArithmeticError, StopIteration,
               AssertionError)


def _note_place(exc: BaseException, g: Game, proc: str, at: str) -> None:
    """Note on `exc` where in the rules it was raised (the innermost step only): the procedure, its
    step, and the ability or effect running there, if any. The exception keeps its type, so what
    catches it still does; `failure_place` reads the note."""
    if failure_place(exc):
        return
    try:
        running = running_abilities(g)
    except Exception:   # noqa: BLE001  (a flow too broken to read: the procedure and step still say where)
        running = []
    exc.add_note(f"{_PLACE}'{proc}', step '{at}'" + (f", running {running[-1]}" if running else ""))


_PLACE = "in procedure "
_STEP_KEY = "at"   # the frame's key naming its step (an AST constant compared here, not an option label)


def failure_place(exc: BaseException) -> str:
    """Where in the rules `exc` was raised (`in procedure 'battle', step 'dice'`), '' if unknown."""
    return next((n for n in getattr(exc, "__notes__", ()) if isinstance(n, str) and n.startswith(_PLACE)), "")


def decision_data(d: Decision) -> dict[str, Any]:
    return {"player": d.player, "kind": d.kind, "options": list(d.options), "prompt": d.prompt,
            "context": {**d.context}}   # (a copy by a merge: a C call, not a call of the dict type)


def decision_of(data: dict[str, Any]) -> Decision:
    return Decision(data["player"], data["kind"], tuple(data["options"]), data["prompt"], dict(data["context"]))


def ask(player: str, kind: str, options: Any, prompt: str, records: Any = None, **context: Any) -> Ask:
    """A decision for `player` (duplicate options dropped; one option is answered by the driver
    without asking). `options`: labels in order, or a dict whose keys are the labels (distinct
    already). `records`: what each option is, by label in their order (engine/option.py's records,
    as a listing made them), kept with the decision for the player's seat (`Decision.records`).
    `context` must be JSON (it is kept in the state while pending)."""
    opts = tuple(options)
    if type(options) is not dict and len(set(opts)) < len(opts):   # (a set, not dict.fromkeys: no method call)
        opts = tuple(dict.fromkeys(opts))
    if not opts:
        raise RuleError(f"internal: empty decision for {player}: {prompt}")
    return Ask(new_decision(player, kind, opts, prompt, context, records))


def open_windows(g: Game) -> list[str]:
    """The timing windows open now, outermost first."""
    return [f["window"] for f in g.s.flow if f["proc"] == "window"]


def running_abilities(g: Game) -> list[str]:
    """The abilities running now, outermost first (for trigger-loop messages)."""
    return [f["label"] for f in g.s.flow if f["proc"] in ("ability", "effect") and f.get("label")]
