# Cython declarations for the compiled core (hatch_build.py), beside the unchanged moves.py, which
# stays the reference: the Move listing's helpers as C functions (its calls of them are C calls)
# and its tables typed. A typed local holds exactly its type or None (else TypeError).
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields
# the modifier lookups and the record maker a listing calls as C calls (cimported from their .pxd)
from necronomicon.interpreter.engine cimport core
from necronomicon.interpreter.engine.core cimport may_modify, modifier_index, modifiers_of
from necronomicon.interpreter.engine.option cimport Option, is_done, labelled_move, labelled_moves, move_answer
from necronomicon.interpreter.engine.flow cimport Ask, Return
from necronomicon.interpreter.engine.decisions cimport new_decision
from necronomicon.interpreter.engine.state cimport _count_at, _on_map, _units_of
from necronomicon.interpreter.engine.kept_costs cimport costs_at
from necronomicon.interpreter.engine.abilities cimport quiet_window
from necronomicon.interpreter.engine.basics cimport gain_power

cdef dict _NEIGHBOURS   # (the module's own cache: its `.get` a C call)

cpdef dict neighbours(object layout)
@cython.locals(index=dict)
cpdef tuple move_mods(RulesFields g)

@cython.locals(seen=dict, out=list)
cpdef list reachable(RulesFields g, object p, object u, object mods=*)

@cython.locals(opts=dict, surcharge=dict, near=dict, entry=tuple, checking=bint, units=list, ix=tuple, by_id=list)
cpdef dict move_options(RulesFields g, object p, object moved, object charged, object within=*, dict costs=*)

cdef dict _UNIT_MOVES   # (the module's own cache of a unit's moves: its reads C calls)
@cython.locals(kept=tuple, made=list)
cdef list _unit_moves(object kind, object src, object dsts, object uid, bint checking)
cdef bint _free(RulesFields g, object p, object dsts, object charged, dict surcharge, object cost_mods) except -1
@cython.locals(extra=object)
cdef object _surcharge_at(RulesFields g, object p, object dst, dict surcharge, object cost_mods)
cdef list _unit_moves_made(object kind, object src, object dsts, object uid)

@cython.locals(kept=dict)
cdef tuple _surcharges(RulesFields g, object p)

cpdef object action_cost(RulesFields g, object p, object action, object base, object area=*, object mods=*)
cpdef object action_mods(RulesFields g, object p, object action=*)

cdef frozenset _NONE
@cython.locals(records=dict, costs=dict, moved=list, charged=list)
cpdef object move_question(RulesFields g, dict f)
cdef str _DONE_LABEL
@cython.locals(charged=list, moved=list)
cpdef object move_made(RulesFields g, dict f, object ans)
