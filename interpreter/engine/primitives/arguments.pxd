# Cython declarations for the compiled core (hatch_build.py), beside the unchanged arguments.py, which
# stays the reference: the argument checks and the unit filter every query primitive calls as C
# functions (units.pxd cimports them), the filter's class read a C call of basics' `uclass` (basics.pxd)
# and its kind and class lists typed, instead of Python calls of module attributes.
import cython

from necronomicon.interpreter.engine.basics cimport uclass

cpdef object as_player(object ctx, object p)
cpdef list as_list(object v)

@cython.locals(kinds=list, classes=list)
cpdef list filter_units(object ctx, object units, object kind, object cls)
