# Cython declarations for the compiled core (hatch_build.py), beside the unchanged units.py, which
# stays the reference: the unit queries' helpers cimported, so that `units(...)`, `pool(...)` and
# `held(...)` (the commonest queries of conditions: `count(units(owner: me, ...)) > 0`) read the unit
# index (state.pxd) and filter (arguments.pxd) through C calls, not Python calls of module attributes
# and of the State's methods. The primitives themselves stay Python functions (registered by name).
from necronomicon.interpreter.engine.primitives.arguments cimport as_list, as_player, filter_units
from necronomicon.interpreter.engine.state cimport _units_at, _units_of, _pool as _pool_of
from necronomicon.interpreter.engine.basics cimport uclass
from necronomicon.interpreter.engine.state cimport _owner_places

# (the counter's table of the owner's units by place and each place's list: typed reads)
import cython
@cython.locals(places=dict, here=list, n=Py_ssize_t)
cpdef Py_ssize_t _count_units(object ctx, object owner=*, object kind=*, object class_=*, object area=*,
                              object where=*) except -1
