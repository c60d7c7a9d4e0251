# Cython declarations for the compiled core (hatch_build.py), beside the unchanged core.py, which
# stays the reference: the modifier lookups and the costs and combat a listing asks per kind, unit
# and area as C functions (their calls of each other are C calls, with no argument tuple). A typed
# local holds exactly its type or None (else TypeError).
import cython

cpdef object unit_cost(object g, object owner, object t)
cpdef object combat_of(object g, object u, object foe=*, object mods=*)
cpdef object modified(object g, object target, object value, object subject=*, object player=*, object mods=*)
cpdef object _apply_modifiers(object g, object target, object value, object subject, object mods)
cpdef object formula(object g, object fn, object ctx, object name)
cpdef bint may_act(object g, object u, object act, object mods=*) except -1
cpdef bint may_modify(object g, object target, object fields, object mods=*) except -1
cpdef object modifiers_of(object g, object target)
@cython.locals(memo=dict, index=dict)
cpdef dict modifier_index(object g)
cpdef bint can_control(object g, object u, object ask_modifiers=*) except -1
