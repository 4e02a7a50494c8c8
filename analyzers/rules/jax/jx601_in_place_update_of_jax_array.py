"""JX601: item assignment on a JAX array."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.semantics.names import BindingKind
from xlalens.analyzers.semantics.values import Array

_AUGMENTED = {
    ast.Add: ("add", False),
    ast.Sub: ("subtract", False),
    ast.Mult: ("multiply", False),
    ast.Div: ("divide", False),
    ast.Pow: ("power", False),
}


@register_rule
class InPlaceUpdateOfJaxArray(Rule):
    """## What it does
    Finds item assignment (`x[i] = v`, `x[i] += v`, `x[1:3] *= 2`) on a JAX array, inside or
    outside traced code. NumPy arrays, lists and dicts are not reported.

    ## Why is this bad?
    JAX arrays are immutable, so this raises `TypeError: JAX arrays are immutable and do not
    support in-place item assignment`. The functional form `x.at[i].set(v)` returns a new
    array; under `jit`, XLA updates in place when the old value is dead afterwards. An argument of
    the jitted function is still copied once per call unless it is donated (`donate_argnums`).

    ## Example
    ```python
    import jax.numpy as jnp

    x = jnp.zeros(3)
    x[0] = 1.0
    ```

    Use instead:
    ```python
    import jax.numpy as jnp

    x = jnp.zeros(3)
    x = x.at[0].set(1.0)
    ```

    ## Fix safety
    The fix rewrites `x[i] = v` to `x = x.at[i].set(v)` and `x[i] += v` to
    `x = x.at[i].add(v)` (`subtract`, `multiply`, `divide`, `power` likewise). It is safe: the
    original statement always raised, and the rewrite rebinds the same name. Targets that are
    not a plain name (`self.x[i] = v`) are not fixed.

    ## References
    - JAX docs: "JAX sharp bits: in-place updates"
    - `jax.numpy.ndarray.at`
    """

    code = "JX601"
    raises = ("TypeError",)
    message = "In-place update of a JAX array"
    explainer = "in-place-updates#item-assignment"
    fix_title = "Use `x.at[i].set(v)`"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Assign, ast.AugAssign)
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.Assign):
            if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Subscript):
                return
            target = node.targets[0]
            method = "set"
        else:
            assert isinstance(node, ast.AugAssign)
            if not isinstance(node.target, ast.Subscript):
                return
            target = node.target
            found = _AUGMENTED.get(type(node.op))
            if found is None:
                return
            method = found[0]
        array = ctx.value(target.value)
        if not (isinstance(array, Array) and array.library == "jax"):
            return
        root = _root_name(target.value)
        if root is not None and _may_be_pallas_ref(root.id, ctx):
            return  # a Pallas ref, or a view of one (`ref.at[i].bitcast(...)[...] = v` stores into it)
        name = ctx.segment(target.value)
        index = ctx.segment(target.slice)
        fix = None
        if isinstance(target.value, ast.Name):
            replacement = f"{name} = {name}.at[{index}].{method}({ctx.segment(node.value)})"
            fix = ctx.fix(
                f"Rewrite as `{name} = {name}.at[...].{method}(...)`",
                Applicability.SAFE,
                [ctx.edit(node, replacement)],
            )
        kind = array.describe() if array.dtype and array.shape is not None else "JAX array"
        ctx.report(
            node,
            f"In-place update of `{name}` ({kind}): JAX arrays are immutable, so this raises TypeError; "
            f"use `{name} = {name}.at[{index}].{method}(...)`",
            fix=fix,
        )


def _root_name(expr: ast.expr) -> ast.Name | None:
    """The name a chain of attributes, subscripts and method calls starts from (``ref`` of ``ref.at[i].bitcast()``)."""
    while True:
        if isinstance(expr, ast.Name):
            return expr
        if isinstance(expr, ast.Attribute | ast.Subscript):
            expr = expr.value
        elif isinstance(expr, ast.Call):
            expr = expr.func
        else:
            return None


def _may_be_pallas_ref(name: str, ctx: CheckContext) -> bool:
    """Whether ``name`` may be a mutable Pallas ref rather than an array.

    Kernel helpers often annotate their refs as ``jax.Array``; writing into a ref with ``x_ref[...] =``
    is how a kernel stores its results. Names in the ``*_ref`` convention, and parameters of
    functions in a module that imports Pallas, are given the benefit of the doubt.
    """
    if name == "ref" or name.endswith("_ref"):
        return True
    found = ctx.index.lookup(name, ctx.scope)
    if found is None or not any(binding.kind is BindingKind.PARAM for binding in found[1]):
        return False
    return ctx.index.imports("jax.experimental.pallas")
