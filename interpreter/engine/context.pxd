# Cython declarations for the compiled core (hatch_build.py), beside the unchanged context.py, which
# stays the reference: EffectCtx as an extension type, its twelve fields (context.py's __slots__) C
# fields of the instance, so that making a context (several a decision: every modifier's `when`,
# every requirement's condition, every effect run) stores them directly instead of through a slot
# descriptor each, and its methods read them so; __init__ is the type's own, with no Python-level
# lookup of it. Any other module reads and writes the fields by name, as it did the slots. `game`
# is the rules context, typed (rules_fields.pxd), so that the evaluation budget's `g.steps` in
# `tick` and `spend` (several times a decision) is a C field too.
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields

cdef class EffectCtx:
    cdef public RulesFields game
    cdef public object me, self_unit, event, subject, value, area, scopes, where, ability, foe, stand_in

# (a C function in this module, its fields set as C fields; other modules call it by position, with no
# keyword parsing)
@cython.locals(c=EffectCtx)
cpdef EffectCtx new_ctx(RulesFields game, object me, object self_unit, object event, object subject, object value,
                        object area, object ability, object foe)
@cython.locals(c=EffectCtx)
cdef void _fill(EffectCtx c, RulesFields game, object me, object self_unit, object event, object subject, object value,
                object area, object ability, object foe)
