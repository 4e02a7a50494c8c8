"""What the functions ``jax.lax`` control flow traces receive: tracers shaped like the operands.

A ``scan`` body sees the initial carry and one slice of ``xs``; a ``fori_loop`` body an ``int32``
index and the carry; ``while_loop``'s condition and body the carry; ``cond`` and ``switch`` branches
the operands. Each becomes a tracer of the operand's type, so a body written anywhere in the module
(a method, a helper) is interpreted on values, not on unknown parameters: ``tokens[t] = v`` on a
carried array is known to write into a JAX array.
"""

from __future__ import annotations

import ast

from xlalens.analyzers.knowledge import lax_control_flow
from xlalens.analyzers.semantics.interpreter import Interpreter, InterpreterExtension, ParameterValues
from xlalens.analyzers.semantics.names import FunctionNode, positional_params
from xlalens.analyzers.semantics.values import UNKNOWN, Array, FunctionRef, Seq, Value, join, traced_copy


def _leading_slice(value: Value) -> Value:
    """One iteration's slice of ``xs``: every array without its leading axis."""
    if isinstance(value, Array):
        shape = value.shape[1:] if value.shape else None
        return Array(shape, value.dtype, value.weak_type, True, value.library)
    if isinstance(value, Seq):
        return Seq(tuple(_leading_slice(item) for item in value.items), value.is_list)
    return UNKNOWN


def _body(interpreter: Interpreter, expr: ast.expr, scope: object) -> tuple[FunctionNode, Value | None] | None:
    """The function an argument denotes, with the receiver bound to its first parameter (a method)."""
    if isinstance(expr, ast.Lambda):
        return expr, None
    value = interpreter.value_of(expr, scope)  # type: ignore[arg-type]
    if isinstance(value, FunctionRef) and value.bound in (0, 1):
        return value.node, value.receiver if value.bound == 1 else None
    return None


def _control_flow_parameters(interpreter: Interpreter) -> ParameterValues:
    index = interpreter.index
    found: dict[int, dict[str, Value]] = {}
    for call, scope in index.nodes.get(ast.Call, ()):
        assert isinstance(call, ast.Call)
        primitive = lax_control_flow.signature(index.qualname(call.func, scope))
        if primitive is None or any(isinstance(a, ast.Starred) for a in call.args):
            continue
        for function_expr, values in _calls_made(interpreter, primitive, call, scope):
            body = _body(interpreter, function_expr, scope)
            if body is None:
                continue
            node, receiver = body
            names = positional_params(node)
            if receiver is not None:
                names = names[1:]
            if len(values) > len(names) or node.args.vararg is not None:
                continue
            params = dict(zip(names, values, strict=False))
            if receiver is not None:
                params[positional_params(node)[0]] = receiver
            previous = found.get(id(node))
            if previous is not None:
                # The same body traced by two calls: what both give.
                params = {k: join(v, previous[k]) for k, v in params.items() if k in previous}
            found[id(node)] = params
    return {key: {k: v for k, v in params.items() if v is not UNKNOWN} for key, params in found.items()}


def _calls_made(
    interpreter: Interpreter, primitive: lax_control_flow.ControlFlowSignature, call: ast.Call, scope: object
) -> list[tuple[ast.expr, list[Value]]]:
    """Each traced function argument of ``call`` with the values its positional parameters get."""

    def operand(expr: ast.expr | None) -> Value:
        return traced_copy(interpreter.value_of(expr, scope)) if expr is not None else UNKNOWN  # type: ignore[arg-type]

    name = primitive.qualname.rsplit(".", 1)[-1]
    carry = operand(primitive.argument(call, primitive.carry)) if primitive.carry is not None else UNKNOWN
    if name == "scan":
        xs = primitive.argument(call, "xs")
        sliced = _leading_slice(interpreter.value_of(xs, scope)) if xs is not None else UNKNOWN  # type: ignore[arg-type]
        body = primitive.argument(call, "f")
        return [(body, [carry, sliced])] if body is not None else []
    if name == "fori_loop":
        body = primitive.argument(call, "body_fun")
        return [(body, [Array((), "int32", traced=True), carry])] if body is not None else []
    if name == "while_loop":
        pairs = [(primitive.argument(call, p), [carry]) for p in ("cond_fun", "body_fun")]
        return [(expr, values) for expr, values in pairs if expr is not None]
    operands = [operand(o) for o in primitive.operands(call)]
    functions: list[ast.expr] = []
    for param in primitive.functions:
        argument = primitive.argument(call, param)
        if param == "branches" and isinstance(argument, ast.List | ast.Tuple):
            functions.extend(argument.elts)
        elif argument is not None and param != "branches":
            functions.append(argument)
    return [(function, operands) for function in functions]


CONTROL_FLOW_PARAMETERS = InterpreterExtension("lax-control-flow", parameters=_control_flow_parameters)
"""What the interpreter learns from this module: the parameters of scan, fori_loop, while_loop, cond and
switch bodies are tracers of the operands' types."""
