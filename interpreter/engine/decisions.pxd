# Cython declarations for the compiled core (hatch_build.py), beside the unchanged decisions.py,
# which stays the reference: the Decision that flow.ask makes at every question, made by a C function
# (flow.pxd cimports it) whose writes into the new instance's dict are typed.
import cython

@cython.locals(fields=dict)
cpdef object new_decision(object player, object kind, tuple options, object prompt, dict context, object records)
