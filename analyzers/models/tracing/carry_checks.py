"""Loop carries checked as JAX checks them: the initial carry against the body's carry output.

A ``fori_loop``, ``while_loop`` or ``scan`` is traced once with the initial carry's type, and JAX
requires the body to return exactly that type. :func:`check_carry` interprets the body on the
initial carry (:mod:`.carry_types`), applies JAX's weak-type promotion and retraces as JAX does, and
keeps what still differs. The JX301-JX303 rules report it; the carry hints show the type it runs with.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
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
from xlalens.analyzers.semantics.values import Array, Const, Static
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


def _index_arguments(node: ast.Call, view: ScopeView) -> list[Tree]:
    """The types the loop index of ``fori_loop`` may have.

    Concrete bounds (Python ints) make JAX run a ``scan`` whose index starts as a Python int: a weakly
    typed int32. Traced bounds make it a ``while_loop`` over the bounds' own dtype. When the bounds
    cannot be told apart, both int32 indices are candidates, and a mismatch must hold for both.
    """
    values = [view.interpreter.value_of(bound, view.scope) for bound in _fori_bounds(node) if bound is not None]
    if len(values) != 2:
        return [None]
    if all((isinstance(v, Const) and type(v.value) is int) or v == Static("int") for v in values):
        return [Leaf((), "int32", True)]
    arrays = [v for v in values if isinstance(v, Array) and v.is_traced_array()]
    if arrays and all(v.dtype == "int32" and v.shape == () and not v.weak_type for v in arrays):
        return [Leaf((), "int32", False)]
    return [Leaf((), "int32", True), Leaf((), "int32", False)]


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
    body = types.body_at(body_expr, view.scope)
    init = types.value_at(init_expr, view.scope)
    if body is None or init is None:
        return None
    function, bound = body
    name = loop.rsplit(".", 1)[-1]
    carry_position = (1 if name == "fori_loop" else 0) + bound
    if len(function.args.args) <= carry_position:
        return None
    runs: list[Callable[[Tree], Tree]]
    if name == "fori_loop":
        runs = [
            lambda carry, index=index: types.call(function, [index, carry], bound=bound)
            for index in _index_arguments(node, view)
        ]
    elif name == "while_loop":
        runs = [lambda carry: types.call(function, [carry], bound=bound)]
    else:
        xs_expr = primitive.argument(node, "xs")
        x = _slice_leading(types.value_at(xs_expr, view.scope)) if xs_expr is not None else None
        runs = [lambda carry: _scan_carry(types.call(function, [carry, x], bound=bound))]
    outcomes = [_compare(init, run) for run in runs]
    mismatches, shown = outcomes[0]
    if any(other[0] != mismatches for other in outcomes[1:]):
        return None  # the verdict depends on what the loop index is
    bounds = _bounds(node, view) if name == "fori_loop" else None
    carry_name = function.args.args[carry_position].arg
    return CarryCheck(name, init_expr, body_expr, carry_name, mismatches, *shown, bounds)


def _compare(init: Tree, run: Callable[[Tree], Tree]) -> tuple[tuple[Mismatch, ...], tuple[Tree, Tree]]:
    """The mismatches JAX reports for a body run on ``init``, and the (input, output) types it compares."""
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
    return tuple(mismatches), shown


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
