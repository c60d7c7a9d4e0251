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
from .context import EffectCtx
from .frame_values import Decoder, Encoder

_CTX = ("me", "ability", "self_unit", "event", "subject", "value", "area", "foe", "stand_in")


def effect_frame(g: Any, effect: Program, ctx: EffectCtx, label: str | None = None) -> dict[str, Any]:
    """The frame that runs `effect` with `ctx` (its names and context encoded)."""
    if g.content.tables.programs.get(effect.key) is not effect:
        raise RuleError(f"internal: the effect program {effect.key!r} is not one of the content's")
    enc = Encoder(g)
    c = {k: enc(getattr(ctx, k)) for k in _CTX}
    f = {"proc": "effect", "at": "run", "program": effect.key, "ctx": c, "pc": 0, "scopes": enc(ctx.scopes),
         "iters": [], "wait": None}   # (flow.frame's record as a literal: see frame)
    if label:
        f["label"] = label
    return f


class EffectProc(flow.Proc):
    """Runs an effect program one stretch at a time (between decisions and procedure calls)."""

    name = "effect"
    STEPS = ("run",)

    def step(self, g: Any, f: dict[str, Any], value: Any) -> Any:
        prog = g.content.tables.programs.get(f["program"])
        if prog is None:
            raise RuleError(f"internal: no effect program {f['program']!r} in this content")
        dec = Decoder(g)
        c = f["ctx"]
        su, ev, sub, val = c["self_unit"], c["event"], c["subject"], c["value"]
        ctx = EffectCtx(g, c["me"], self_unit=su if su is None else dec(su), event=ev if ev is None else dec(ev),
                        subject=sub if sub is None else dec(sub), value=val if val is None else dec(val),
                        area=c["area"], ability=c["ability"], foe=c["foe"])
        ctx.stand_in = dict(c["stand_in"])
        ctx.scopes = dec(f["scopes"])
        iters, wait = f["iters"], f["wait"]
        m = Machine(f["pc"], dec(iters) if iters else [], wait if wait is None else dec(wait))
        r = execute(prog, ctx, m, value)
        if r is None:
            return flow.Return(None)
        enc = Encoder(g)
        f["pc"], f["scopes"] = m.pc, enc(ctx.scopes)
        f["iters"] = enc(m.iters) if m.iters else []
        f["wait"] = None if m.wait is None else enc(m.wait)
        return r.step


__all__ = ["EffectProc", "effect_frame"]
