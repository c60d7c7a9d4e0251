# Cython declarations for the compiled core (hatch_build.py), beside the unchanged units.py, which
# stays the reference: the unit queries' helpers cimported, so that `units(...)`, `pool(...)` and
# `held(...)` (the commonest queries of conditions: `count(units(owner: me, ...)) > 0`) read the unit
# index (state.pxd) and filter (arguments.pxd) through C calls, not Python calls of module attributes
# and of the State's methods. The primitives themselves stay Python functions (registered by name).
from necronomicon.interpreter.engine.primitives.arguments cimport as_list, as_player, filter_units
from necronomicon.interpreter.engine.state cimport _units_at, _units_of, _pool as _pool_of
from necronomicon.interpreter.engine.basics cimport uclass
