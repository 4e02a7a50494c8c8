"""Loop carries checked as JAX checks them: the initial carry against the body's carry output.

A ``fori_loop``, ``while_loop`` or ``scan`` is traced once with the initial carry's type, and JAX
requires the body to return exactly that type. :func:`check_carry` interprets the body on the
initial carry (:mod:`.carry_types`), applies JAX's weak-type promotion and retraces as JAX does, and
keeps what still differs. The JX301-JX303 rules report it; the carry hints show the type it runs with.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from xlalens.analyzers.knowledge import lax_control_flow
from xlalens.analyzers.models.tracing.carry_types import (
    BodyTypes,
    ContainerType,
    Leaf,
    Mismatch,
    Tree,
    compare,
    promote_weak,
)
from xlalens.analyzers.semantics.scope_view import ScopeView
from xlalens.analyzers.semantics.values import Const
from xlalens.explainers.calculators import dtypes


@dataclass(frozen=True, slots=True)
class CarryCheck:
    """The outcome of comparing one loop's initial carry with its body's carry output."""

    loop: str
    init: ast.expr
    body: ast.AST
    carry_name: str
    mismatches: tuple[Mismatch, ...]
    init_type: Tree = None
    out_type: Tree = None
    bounds: str | None = None

    def calculator_inputs(self) -> dict[str, Any] | None:
        """The ``carry-check`` calculator's inputs for this loop; None when its notation cannot hold them."""
        init, out = carry_text(self.init_type), carry_text(self.out_type)
        if init is None or out is None or (self.loop == "fori_loop" and self.bounds is None):
            return None
        inputs = {"primitive": self.loop, "name": self.carry_name, "init": init, "out": out}
        if self.bounds is not None:
            inputs["bounds"] = self.bounds
        return inputs


def _fori_bounds(node: ast.Call) -> list[ast.expr | None]:
    fori = lax_control_flow.signature("jax.lax.fori_loop")
    assert fori is not None
    return [fori.argument(node, "lower"), fori.argument(node, "upper")]


def _bounds(node: ast.Call, view: ScopeView) -> str | None:
    """``static`` when both ``fori_loop`` bounds are Python ints, ``traced`` when one is a tracer."""
    values = [view.interpreter.value_of(bound, view.scope) for bound in _fori_bounds(node) if bound is not None]
    if len(values) == 2 and all(isinstance(v, Const) and type(v.value) is int for v in values):
        return "static"
    if any(v.is_traced_array() for v in values):
        return "traced"
    return None


def _index_argument(node: ast.Call) -> Tree:
    """The loop index of ``fori_loop``: weakly typed int32 when both bounds are Python ints."""
    bounds = _fori_bounds(node)
    if all(isinstance(b, ast.Constant) and type(b.value) is int for b in bounds):
        return Leaf((), "int32", True)
    return None


def check_carry(node: ast.Call, view: ScopeView) -> CarryCheck | None:
    """Compare a ``fori_loop``/``while_loop``/``scan`` call's carry types; None when not fully understood."""
    loop = view.qualname(node.func)
    primitive = lax_control_flow.signature(loop)
    if primitive is None or primitive.carry is None or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    body_expr = primitive.argument(node, primitive.body)
    init_expr = primitive.argument(node, primitive.carry)
    if body_expr is None or init_expr is None:
        return None
    types = BodyTypes(view)
    function = types.function_at(body_expr, view.scope)
    init = types.value_at(init_expr, view.scope)
    if function is None or init is None:
        return None
    params = function.args.args
    if loop == "jax.lax.fori_loop":
        index: Tree = _index_argument(node)
        run = lambda carry: types.call(function, [index, carry])  # noqa: E731
        carry_position = 1
    elif loop == "jax.lax.while_loop":
        run = lambda carry: types.call(function, [carry])  # noqa: E731
        carry_position = 0
    else:
        xs_expr = primitive.argument(node, "xs")
        x = _slice_leading(types.value_at(xs_expr, view.scope)) if xs_expr is not None else None
        run = lambda carry: _scan_carry(types.call(function, [carry, x]))  # noqa: E731
        carry_position = 0
    if len(params) <= carry_position:
        return None
    out = run(init)
    shown = (init, out)
    mismatches = compare(init, out, "", ignore_weak=True)
    if not mismatches:
        # JAX promotes weakly typed initial leaves to the body's dtypes and traces the body again.
        promoted = promote_weak(init, out)
        if promoted != init:
            again = run(promoted)
            mismatches = compare(promoted, again, "", ignore_weak=False)
            if compare(out, again, "", ignore_weak=False):
                # The calculator assumes the body's output types survive the promotion; here they
                # do not, so it gets the second trace, the one JAX's message describes.
                shown = (promoted, again)
    if any(m.kind == "structure" for m in mismatches):
        # JAX checks the structure first and reports nothing else when it differs.
        mismatches = [m for m in mismatches if m.kind == "structure"]
    name = loop.rsplit(".", 1)[-1]
    bounds = _bounds(node, view) if name == "fori_loop" else None
    return CarryCheck(name, init_expr, body_expr, params[carry_position].arg, tuple(mismatches), *shown, bounds)


def _slice_leading(xs: Tree) -> Tree:
    """One iteration's slice of scan's ``xs``: every leaf without its leading axis."""
    if isinstance(xs, Leaf):
        return Leaf(xs.shape[1:], xs.dtype, xs.weak) if xs.shape else None
    if isinstance(xs, ContainerType):
        return ContainerType(xs.kind, xs.keys, tuple(_slice_leading(child) for child in xs.children))
    return None


def _scan_carry(out: Tree) -> Tree:
    """The carry part of a scan body's ``(carry, y)`` output."""
    if isinstance(out, ContainerType) and out.kind == "tuple" and len(out.children) == 2:
        return out.children[0]
    return None


def carry_text(tree: Tree) -> str | None:
    """A pytree type in the ``carry-check`` calculator's notation; None when it has no such text.

    Examples:
        >>> state = ContainerType("dict", ("m",), (Leaf((), "int32", True),))
        >>> carry_text(ContainerType("tuple", (0, 1), (Leaf((3,), "float32"), state)))
        "(f32[3], {'m': ~i32[]})"
        >>> print(carry_text(ContainerType("State", ("x",), (Leaf((3,), "float32"),))))
        None
    """
    if isinstance(tree, Leaf):
        try:
            short = dtypes.canonical(tree.dtype)
        except ValueError:
            return None
        if tree.weak and short not in ("i32", "f32"):
            return None
        return dtypes.aval(short, tree.shape, tree.weak)
    if not isinstance(tree, ContainerType):
        return None
    if tree.kind == "None":
        return "None"
    children = [carry_text(child) for child in tree.children]
    if None in children:
        return None
    if tree.kind == "dict":
        if not all(isinstance(key, str) for key in tree.keys):
            return None
        return "{" + ", ".join(f"{key!r}: {text}" for key, text in zip(tree.keys, children, strict=True)) + "}"
    if tree.kind == "list":
        return "[" + ", ".join(children) + "]"  # type: ignore[arg-type]
    if tree.kind == "tuple":
        return f"({children[0]},)" if len(children) == 1 else "(" + ", ".join(children) + ")"  # type: ignore[arg-type]
    return None
