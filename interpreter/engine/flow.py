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

Transitional: rules still written as Python generators run inside a `legacy` frame (the
generator is kept beside the state, in `game._legacy`). A generator yields a `Decision` to ask,
`Call(frame)` to run a data frame, and `CHECKPOINT` where it used to snapshot. While a legacy
frame is on the stack, the game is rebuilt from its last restore point by replaying the answers
given since (see `Restore`); with none on the stack, a copy of the state is the whole game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Iterator

from ..effects.compiler import RuleError
from .decisions import Decision

Game = Any   # the game a procedure runs in (engine/game.py imports this module)
CHECKPOINT = object()  # yielded by legacy generators between steps (a restore point)


@dataclass(frozen=True, slots=True)
class Ask:
    decision: Decision


@dataclass(frozen=True, slots=True)
class Call:
    frame: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Return:
    value: Any = None


Step = "Ask | Call | Return | None"
PROCS: dict[str, "Proc"] = {}


class Proc:
    """A procedure of the rules: named steps over a frame. Subclasses set `name` and define one
    method per step, `def STEP(self, g, f, value)`; the frame's `at` names the step to run.

    `may_call_legacy` (default True) says a step may push a legacy frame: the driver then takes a
    restore point before stepping it (transitional; a converted procedure sets it False)."""

    name: ClassVar[str] = ""
    may_call_legacy: ClassVar[bool] = True

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if cls.name:
            if cls.name in PROCS:
                raise RuntimeError(f"two procedures are named {cls.name!r}")
            PROCS[cls.name] = cls()

    def step(self, g: Game, f: dict[str, Any], value: Any) -> Any:
        return getattr(self, f["at"])(g, f, value)


def frame(proc: str, at: str = "start", **local: Any) -> dict[str, Any]:
    """A new frame of procedure `proc`, starting at step `at`, with its locals."""
    return {"proc": proc, "at": at, **local}


# ---- legacy generators -------------------------------------------------------------------------
class Legacy(Proc):
    """Hosts a rule generator that has not become frames yet (not data: see the module note)."""

    name = "legacy"

    def step(self, g: Game, f: dict[str, Any], value: Any) -> Any:
        gen = g._legacy[f["id"]]
        while True:
            try:
                item = gen.send(value)
            except StopIteration as stop:
                del g._legacy[f["id"]]
                return Return(stop.value)
            value = None
            if item is CHECKPOINT:
                g._restore_point(resume=f["id"])
                continue
            if isinstance(item, Decision):
                return Ask(item)
            if isinstance(item, Call):
                return item
            raise RuleError(f"internal: a rule generator yielded {item!r}")  # pragma: no cover


def legacy(g: Game, gen: Iterator[Any]) -> Call:
    """Run generator `gen` as a child frame (transitional)."""
    g._legacy_ids += 1
    k = g._legacy_ids
    g._legacy[k] = gen
    return Call({"proc": "legacy", "id": k, "fn": getattr(gen, "__name__", "?")})


def has_legacy(flow: list[dict[str, Any]]) -> bool:
    return any(f["proc"] == "legacy" for f in flow)


# ---- the driver --------------------------------------------------------------------------------
def run(g: Game, value: Any = None) -> None:
    """Run the rules from the top frame until a decision is pending or the flow is empty.
    `value` is the answer to the pending decision (None to start)."""
    s = g.s
    flow = s.flow
    s.pending = None
    while flow:
        f = flow[-1]
        proc = PROCS[f["proc"]]
        if proc.may_call_legacy and not g._legacy:
            g._restore_point(value=value)
        r = proc.step(g, f, value)
        value = None
        if r is None:
            continue
        t = type(r)
        if t is Return:
            flow.pop()
            value = r.value
        elif t is Call:
            flow.append(r.frame)
        elif t is Ask:
            d = r.decision
            if len(d.options) == 1:
                value = d.options[0]
                continue
            if not d.options:
                raise RuleError(f"internal: empty decision for {d.player}: {d.prompt}")
            if getattr(g, "_dry_run_notes", None) is None:   # a dry run's decisions share one budget
                g.steps = 0
            s.pending = decision_data(d)
            g._pending_obj = d
            return
        else:  # pragma: no cover
            raise RuleError(f"internal: procedure {f['proc']!r} returned {r!r}")


def decision_data(d: Decision) -> dict[str, Any]:
    return {"player": d.player, "kind": d.kind, "options": list(d.options), "prompt": d.prompt,
            "context": dict(d.context)}


def decision_of(data: dict[str, Any]) -> Decision:
    return Decision(data["player"], data["kind"], tuple(data["options"]), data["prompt"], dict(data["context"]))


def ask(player: str, kind: str, options: Any, prompt: str, **context: Any) -> Ask:
    """A decision for `player` (duplicate options dropped; one option is answered by the driver
    without asking). `context` must be JSON (it is kept in the state while pending)."""
    opts = tuple(dict.fromkeys(options))
    if not opts:
        raise RuleError(f"internal: empty decision for {player}: {prompt}")
    return Ask(Decision(player, kind, opts, prompt, context))


def open_windows(g: Game) -> list[str]:
    """The timing windows open now: legacy generators' (`g._depth`), then window frames'."""
    return list(g._depth) + [f["window"] for f in g.s.flow if f["proc"] == "window"]


def running_abilities(g: Game) -> list[str]:
    """The abilities running now (for trigger-loop messages): legacy `g._chain`, then frames'."""
    return list(g._chain) + [f["label"] for f in g.s.flow if f.get("label")]
