# Cython declarations for the compiled core (hatch_build.py), beside the unchanged effect_frames.py, which
# stays the reference: the typed functions of other modules it calls by name (their .pxd declares them
# cpdef) cimported, so that each call is a C call through the exported pointer, not a Python call of
# the module attribute with its arguments packed and parsed again (`from .basics import emit_fields`
# in the source names the same function).
from necronomicon.interpreter.engine.frame_values cimport decode, encode
# the runner's place and the runner (effects/program.pxd): a C type and a C call
from necronomicon.interpreter.effects.program cimport Machine, execute

# a new effect frame reads its context's names as C fields (context.pxd; every caller passes an EffectCtx:
# core.effect_call's, made by core.ctx or new_ctx)
from necronomicon.interpreter.engine.context cimport EffectCtx, new_ctx

cpdef dict effect_frame(object g, object effect, EffectCtx ctx, object label=*)
cdef object _value(object g, object v)
