"""Effect programs run as frames: `{"proc": "effect", "program": KEY, "ctx": ..., "pc", "scopes",
"iters", "wait"}` (and `"label"` when it runs an ability, for trigger-loop messages).

The frame holds the program's key (its content position; the content's tables find the program
by it: content/tables.py `programs`), the context it runs in and the runner's
place (effects/program.py), all as data (frame_values.py); each step rebuilds the context, runs
the program until it pauses at a decision or a procedure call, and writes its place back.
"""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from ..effects.program import Machine, Program, execute
from . import flow
from .context import EffectCtx, new_ctx
from .frame_values import _ATOMS, decode, encode

_CTX = ("me", "ability", "self_unit", "event", "subject", "value", "area", "foe", "stand_in")


def effect_frame(g: Any, effect: Program, ctx: EffectCtx, label: str | None = None) -> dict[str, Any]:
    """The frame that runs `effect` with `ctx` (its names and context encoded)."""
    if g.tables.programs.get(effect.key) is not effect:
        raise RuleError(f"internal: the effect program {effect.key!r} is not one of the content's")
    # (the names of _CTX, in its order, each read by name: C reads in the compiled core, where
    # effect_frames.pxd types the context)
    c = {"me": _value(g, ctx.me), "ability": _value(g, ctx.ability), "self_unit": _value(g, ctx.self_unit),
         "event": _value(g, ctx.event), "subject": _value(g, ctx.subject), "value": _value(g, ctx.value),
         "area": _value(g, ctx.area), "foe": _value(g, ctx.foe), "stand_in": _value(g, ctx.stand_in)}
    f = {"proc": "effect", "at": "run", "program": effect.key, "ctx": c, "pc": 0, "scopes": encode(g, ctx.scopes),
         "iters": [], "wait": None}   # (flow.frame's record as a literal: see frame)
    if label:
        f["label"] = label
    return f


def _value(g: Any, v: Any) -> Any:
    """`v` as frame data (None and strings, most of them, are themselves: no call of the encoder)."""
    return v if type(v) in _ATOMS else encode(g, v)


class EffectProc(flow.Proc):
    """Runs an effect program one stretch at a time (between decisions and procedure calls)."""

    name = "effect"
    STEPS = ("run",)

    def step(self, g: Any, f: dict[str, Any], value: Any) -> Any:
        prog = g.tables.programs.get(f["program"])
        if prog is None:
            raise RuleError(f"internal: no effect program {f['program']!r} in this content")
        c = f["ctx"]
        su, ev, sub, val = c["self_unit"], c["event"], c["subject"], c["value"]
        # (new_ctx: the context EffectCtx(...) makes, by position: a C call in the compiled core)
        ctx = new_ctx(g, c["me"], su if su is None else decode(g, su), ev if ev is None else decode(g, ev),
                      sub if sub is None else decode(g, sub), val if val is None else decode(g, val), c["area"],
                      c["ability"], c["foe"])
        ctx.stand_in = dict(c["stand_in"])
        ctx.scopes = decode(g, f["scopes"])
        iters, wait = f["iters"], f["wait"]
        m = Machine(f["pc"], decode(g, iters) if iters else [], wait if wait is None else decode(g, wait))
        r = execute(prog, ctx, m, value)
        if r is None:
            return flow.Return(None)
        f["pc"], f["scopes"] = m.pc, encode(g, ctx.scopes)
        f["iters"] = encode(g, m.iters) if m.iters else []
        f["wait"] = None if m.wait is None else encode(g, m.wait)
        return r.step


__all__ = ["EffectProc", "effect_frame"]
