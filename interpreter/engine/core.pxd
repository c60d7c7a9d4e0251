# Cython declarations for the compiled core (hatch_build.py), beside the unchanged core.py, which
# stays the reference: the modifier lookups and the costs and combat a listing asks per kind, unit
# and area as C functions (their calls of each other are C calls, with no argument tuple). A typed
# local holds exactly its type or None (else TypeError).
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields, memo_facts, memo_is_current
from necronomicon.interpreter.engine.state_fields cimport StateFields, note_moved
# a new effect context made by a C call (`ctx`, the modifiers' contexts), not through Python's call protocol
from necronomicon.interpreter.engine.context cimport new_ctx

cpdef object ctx(RulesFields g, object me, object ability=*, object self_unit=*, object event=*, object subject=*,
                 object value=*, object area=*, object foe=*)
cpdef object unit_cost(RulesFields g, object owner, object t)
cpdef object combat_of(RulesFields g, object u, object foe=*, object mods=*)
cpdef object modified(RulesFields g, object target, object value, object subject=*, object player=*, object mods=*)
cpdef object _apply_modifiers(RulesFields g, object target, object value, object subject, object mods)
cpdef object formula(RulesFields g, object fn, object ctx, object name)
cpdef bint may_act(RulesFields g, object u, object act, object mods=*) except -1
cpdef bint may_modify(RulesFields g, object target, object fields, object mods=*) except -1
cpdef object modifiers_of(RulesFields g, object target)
@cython.locals(memo=dict, index=dict)
cpdef dict modifier_index(RulesFields g)
cpdef bint can_control(RulesFields g, object u, object ask_modifiers=*) except -1
@cython.locals(gate=dict)   # (a State's gates are dicts: state.pxd)
cpdef object _leave(RulesFields g, object u)
# the move primitive: its calls of its helpers C calls (perform's Move and the unit primitives call it)
cpdef object relocate(RulesFields g, object u, object loc, object why)
cpdef object shift(RulesFields g, object u, object loc)
@cython.locals(m=tuple, facts=dict, places=set, dropped=list)
cpdef object memo_after_move(RulesFields g)
cdef bint _kinds_stay(RulesFields g, object u, object src, object dst) except -1
cpdef object turn_order(RulesFields g)
cpdef object window_call(RulesFields g, object name, object event, object players=*, object area=*)
cdef Py_ssize_t SHALLOW_WINDOWS

# the event log's typed writer, cimported: `relocate`'s event a C call (turn.pxd says why)
from necronomicon.interpreter.engine.basics cimport emit_fields
from necronomicon.interpreter.engine.state cimport _units_of
# `window_call` (every window opens through it, declared above) asks `quiet_window` as a C function
from necronomicon.interpreter.engine.abilities cimport quiet_window
