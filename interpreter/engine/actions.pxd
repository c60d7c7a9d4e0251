# Cython declarations for the compiled core (hatch_build.py), beside the unchanged actions.py, which
# stays the reference: the listings as C functions (a listing's calls of another listing of this
# module are C calls, with no argument tuple) and their lists and tables typed, so that appends and
# reads are C calls too. A typed local holds exactly its type or None (else TypeError).
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields
from necronomicon.interpreter.engine.state_fields cimport StateFields
# the helpers of other modules a listing calls (by module, `core.modified`, or by name) as C calls:
# cimported functions of their .pxd, with no argument tuple and no lookup of the name
from necronomicon.interpreter.engine cimport basics, core, moves
from necronomicon.interpreter.engine.basics cimport is_area, uclass
from necronomicon.interpreter.engine.core cimport can_control, combat_of, may_modify, modifier_index, unit_cost
from necronomicon.interpreter.engine.moves cimport action_cost
from necronomicon.interpreter.engine.option cimport action
from necronomicon.interpreter.engine.phases cimport has_all_spellbooks
from necronomicon.interpreter.engine.unique_actions cimport ability_actions, requirement_actions
from necronomicon.interpreter.engine.state cimport (_controlled_gates, _count_at, _gate_owner, _in_pool, _on_map,
                                                   _places_of, _units_at)

cpdef list unit_gates(RulesFields g, object p=*)
cpdef object unit_gates_bytes(RulesFields g)
cpdef object gate_count(RulesFields g, object p)

@cython.locals(out=list, my_areas=list, index=dict, s=StateFields, victims=list, classes=dict, others=list)
cpdef list main_actions(RulesFields g, object p, object within=*)

@cython.locals(out=list, gates=list, areas=object, s=StateFields)
cpdef list summon_actions(RulesFields g, object p, object unlimited=*)

cpdef object may_summon(RulesFields g, object p, object t)
cpdef object unlimited_summon(RulesFields g, object p, object kind)
cpdef object extra_battle_allowed(RulesFields g, object p)

@cython.locals(out=list, foes=list, mine=list, others=list, s=StateFields, ready=bint, index=dict)
cpdef list battle_actions(RulesFields g, object p, object verb, object areas=*)

cpdef bint _some_combat(RulesFields g, object units, object foe, object mods) except -1
cpdef bint _has_class(RulesFields g, object units, object cls) except -1

@cython.locals(out=list, areas=object, gate=dict, found=dict, s=StateFields)
cpdef list unlimited_actions(RulesFields g, object p)

# a chosen action's frame and its common counterpart, as C calls from turn.py
cpdef object as_common_action(object option)
cpdef object take_action_call(object g, object p, object label, object cost, object within=*)

cpdef object in_area(RulesFields g, object p, object action, object area)
cpdef list _captors(RulesFields g, object p, object area, object mods=*)

@cython.locals(cultists=list, guarded=bint)
cpdef list capture_targets(RulesFields g, object p, object victim, object area, object captors=*)
