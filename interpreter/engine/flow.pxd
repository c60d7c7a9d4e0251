# Cython declarations for the compiled core (hatch_build.py), beside the unchanged flow.py, which
# stays the reference: what a step returns (Ask, Call, Return) as extension types, their one field
# a C field, so that making one (several a decision) runs the type's own C __init__ instead of a
# Python-level one looked up on the class, and the driver, `run`, reads the field of the outcome it
# has told apart by its exact type as a C read (any other module reads it by name, as before).
import cython

from necronomicon.interpreter.engine.rules_fields cimport RulesFields
from necronomicon.interpreter.engine.decisions cimport Decision, new_decision

cdef class _Outcome:
    pass

cdef class Ask(_Outcome):
    cdef public object decision

cdef class Call(_Outcome):
    cdef public object frame

cdef class Return(_Outcome):
    cdef public object value

# `run`'s context typed (rules_fields.pxd): its state and the pending decision's fields are C reads
# (the frame, the stack and the tables typed: their reads are dict and list reads, not generic ones)
@cython.locals(ret=Return, call=Call, asked=Ask, d=Decision, f=dict, flow=list, steps=dict, runs=dict, entry=tuple, last=dict)
cpdef object run(RulesFields g, object value=*, object floor=*)

# the pending decision's record, its fields C reads (decisions.pxd: Decision is an extension type)
cpdef dict decision_data(Decision d)
