# Cython declarations for the compiled core (hatch_build.py), beside the unchanged options.py, which
# stays the reference: `option_info`'s tables and costs typed as dicts (a bot classifies every
# option of every decision), so that their lookups are C calls, not method calls on untyped objects.
import cython

@cython.locals(table=dict, costs=object, cost_of=dict, out=list)
cpdef list option_info(object d, object players, object areas)
