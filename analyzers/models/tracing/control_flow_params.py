"""What the functions ``jax.lax`` control flow traces receive: tracers shaped like the operands.

A ``scan`` body sees the initial carry and one slice of ``xs``; a ``fori_loop`` body an ``int32``
index and the carry; ``while_loop``'s condition and body the carry; ``cond`` and ``switch`` branches
the operands. Each becomes a tracer of the operand's type, so a body written anywhere in the module
(a method, a helper) is interpreted on values, not on unknown parameters: ``tokens[t] = v`` on a
carried array is known to write into a JAX array.

The values are computed lazily, for a body when the interpreter first evaluates it: the operands
of every loop in a module are not worth evaluating when no rule looks inside most bodies.
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Iterator, Mapping

from xlalens.analyzers.knowledge import lax_control_flow
from xlalens.analyzers.semantics.calls import call_graph
from xlalens.analyzers.semantics.interpreter import Interpreter, InterpreterExtension, ParameterValues
from xlalens.analyzers.semantics.names import FunctionNode, ModuleIndex, Scope, positional_params
from xlalens.analyzers.semantics.values import UNKNOWN, Array, FunctionRef, Seq, Value, join, traced_copy

_Use = tuple[lax_control_flow.ControlFlowSignature, ast.Call, Scope, int]
"""A control-flow call, its scope, and which of its traced functions (by position) a body is."""


def _leading_slice(value: Value) -> Value:
    """One iteration's slice of ``xs``: every array without its leading axis."""
    if isinstance(value, Array):
        shape = value.shape[1:] if value.shape else None
        return Array(shape, value.dtype, value.weak_type, True, value.library)
    if isinstance(value, Seq):
        return Seq(tuple(_leading_slice(item) for item in value.items), value.is_list)
    return UNKNOWN


def _functions(
    index: ModuleIndex, primitive: lax_control_flow.ControlFlowSignature, call: ast.Call, scope: Scope
) -> list[ast.expr]:
    """The traced function arguments of a control-flow call, in order (``switch`` branches kept in a
    module-level tuple included)."""
    found: list[ast.expr] = []
    for param in primitive.functions:
        argument = primitive.argument(call, param)
        if argument is None:
            continue
        if param == "branches":
            found.extend(index.literal_elements(argument, scope) or [])
        else:
            found.append(argument)
    return found


class _ControlFlowParameters(Mapping[int, Mapping[str, Value]]):
    """Body ``id`` -> its parameters' values, computed on first request."""

    def __init__(self, interpreter: Interpreter) -> None:
        # A weak reference: the interpreter keeps this provider, and a cycle would keep every
        # checked module alive until the cycle collector runs.
        self._interpreter = weakref.ref(interpreter)
        self.index = interpreter.index
        self.uses: dict[int, list[_Use]] = {}
        self.deferred: list[tuple[ast.expr, _Use]] = []
        self.computed: dict[int, Mapping[str, Value] | None] = {}
        graph = call_graph(self.index)
        for call, scope in self.index.nodes.get(ast.Call, ()):
            assert isinstance(call, ast.Call)
            primitive = lax_control_flow.signature(self.index.qualname(call.func, scope))
            if primitive is None or any(isinstance(a, ast.Starred) for a in call.args):
                continue
            for position, expr in enumerate(_functions(self.index, primitive, call, scope)):
                use: _Use = (primitive, call, scope, position)
                node: FunctionNode | None = None
                if isinstance(expr, ast.Lambda):
                    node = expr
                elif isinstance(expr, ast.Name):
                    node = self.index.local_function(expr.id, scope)
                elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
                    node = graph.method_of_self(expr.value.id, expr.attr, scope)
                if node is not None:
                    self.uses.setdefault(id(node), []).append(use)
                else:
                    self.deferred.append((expr, use))

    @property
    def interpreter(self) -> Interpreter:
        interpreter = self._interpreter()
        assert interpreter is not None, "the interpreter outlived by its parameter provider"
        return interpreter

    def __getitem__(self, key: int) -> Mapping[str, Value]:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def get(self, key: int, default: object = None) -> Mapping[str, Value] | None:  # type: ignore[override]
        if key not in self.computed:
            if key not in self.uses and self.deferred:
                self._resolve_deferred()
            uses = self.uses.get(key)
            self.computed[key] = self._parameters(uses) if uses else None
        return self.computed[key]

    def __iter__(self) -> Iterator[int]:
        return iter(k for k, v in self.computed.items() if v is not None)

    def __len__(self) -> int:
        return sum(1 for v in self.computed.values() if v is not None)

    def _resolve_deferred(self) -> None:
        """Bodies only values name (``obj.method``, a variable holding a function)."""
        deferred, self.deferred = self.deferred, []
        for expr, use in deferred:
            value = self.interpreter.value_of(expr, use[2])
            if isinstance(value, FunctionRef) and value.bound in (0, 1):
                self.uses.setdefault(id(value.node), []).append(use)

    def _parameters(self, uses: list[_Use]) -> Mapping[str, Value] | None:
        joined: dict[str, Value] | None = None
        for primitive, call, scope, position in uses:
            expr = _functions(self.index, primitive, call, scope)[position]
            node, receiver = self._body(expr, scope)
            if node is None:
                return None
            values = self._operands(primitive, call, scope, position)
            names = positional_params(node)
            if receiver is not None:
                names = names[1:]
            if len(values) > len(names) or node.args.vararg is not None:
                return None
            params: dict[str, Value] = dict(zip(names, values, strict=False))
            if receiver is not None:
                params[positional_params(node)[0]] = receiver
            joined = params if joined is None else {k: join(v, joined[k]) for k, v in params.items() if k in joined}
        return {k: v for k, v in (joined or {}).items() if v is not UNKNOWN} or None

    def _body(self, expr: ast.expr, scope: Scope) -> tuple[FunctionNode | None, Value | None]:
        if isinstance(expr, ast.Lambda):
            return expr, None
        value = self.interpreter.value_of(expr, scope)
        if isinstance(value, FunctionRef) and value.bound in (0, 1):
            return value.node, value.receiver if value.bound == 1 else None
        if isinstance(expr, ast.Name):
            return self.index.local_function(expr.id, scope), None
        return None, None

    def _operands(
        self, primitive: lax_control_flow.ControlFlowSignature, call: ast.Call, scope: Scope, position: int
    ) -> list[Value]:
        """The values the ``position``-th traced function of ``call`` gets for its positional parameters."""

        def operand(expr: ast.expr | None) -> Value:
            return traced_copy(self.interpreter.value_of(expr, scope)) if expr is not None else UNKNOWN

        name = primitive.qualname.rsplit(".", 1)[-1]
        carry = operand(primitive.argument(call, primitive.carry)) if primitive.carry is not None else UNKNOWN
        if name == "scan":
            xs = primitive.argument(call, "xs")
            return [carry, _leading_slice(self.interpreter.value_of(xs, scope)) if xs is not None else UNKNOWN]
        if name == "fori_loop":
            return [Array((), "int32", traced=True), carry]
        if name == "while_loop":
            return [carry]
        return [operand(o) for o in primitive.operands(call)]


def _control_flow_parameters(interpreter: Interpreter) -> ParameterValues:
    return _ControlFlowParameters(interpreter)


CONTROL_FLOW_PARAMETERS = InterpreterExtension("lax-control-flow", parameters=_control_flow_parameters)
"""What the interpreter learns from this module: the parameters of scan, fori_loop, while_loop, cond and
switch bodies are tracers of the operands' types."""
