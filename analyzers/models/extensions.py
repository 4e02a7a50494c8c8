"""The domain models' extensions of the interpreter, and the interpreter every front end builds with them.

Each domain model that defines library values or parameter values hands the interpreter an
:class:`~xlalens.analyzers.semantics.interpreter.InterpreterExtension`; this module gathers them in
the order they are asked (Pallas, then sharding values, then ``shard_map`` and control-flow parameters), so the
engine, ``annotate`` and the language server interpret a module the same way.
"""

from __future__ import annotations

from xlalens.analyzers.models.pallas.values import PALLAS_VALUES
from xlalens.analyzers.models.sharding.shard_map import SHARD_MAP_PARAMETERS
from xlalens.analyzers.models.sharding.values import SHARDING_VALUES
from xlalens.analyzers.models.tracing.control_flow_params import CONTROL_FLOW_PARAMETERS
from xlalens.analyzers.models.tracing.traced_functions import find_traced_functions, follow_values
from xlalens.analyzers.semantics.interpreter import Interpreter, InterpreterExtension
from xlalens.analyzers.semantics.names import ModuleIndex

DOMAIN_EXTENSIONS: tuple[InterpreterExtension, ...] = (
    PALLAS_VALUES,
    SHARDING_VALUES,
    SHARD_MAP_PARAMETERS,
    CONTROL_FLOW_PARAMETERS,
)
"""Every extension, in the order the interpreter consults them."""


def module_interpreter(index: ModuleIndex) -> Interpreter:
    """An interpreter of the module ``index`` describes, with its traced functions and every domain extension.

    Examples:
        >>> import ast
        >>> code = "import jax\\nmesh = jax.make_mesh((4, 2), ('x', 'y'))\\n"
        >>> index = ModuleIndex(ast.parse(code), [])
        >>> module_interpreter(index).value_of(index.tree.body[1].value, index.module_scope).describe()
        "Mesh('x': 4, 'y': 2, axis_types=(Explicit, Explicit))"
    """
    interpreter = Interpreter(index, find_traced_functions(index), DOMAIN_EXTENSIONS)
    # The module's own statements make the calls that give methods their receivers (`model.update(x)`):
    # evaluated first, from the top, they are known before any function is asked about, whatever
    # order the rules ask in.
    interpreter.evaluation(index.module_scope)
    interpreter.settle()
    follow_values(interpreter)
    return interpreter
