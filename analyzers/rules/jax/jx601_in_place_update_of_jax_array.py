"""JX601: item assignment on a JAX array."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.names import Binding, BindingKind, ModuleIndex
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
    `x = x.at[i].add(v)` (`subtract`, `multiply`, `divide`, `power` likewise). It is safe when the
    name is certainly a JAX array: its shape is known, or every assignment to it calls a
    `jax.numpy`/`jax.lax`/`jax.random`/`jax.nn` function, or it is a parameter annotated `jax.Array`.
    Then the original statement always raised, and the rewrite rebinds the same name. When the
    value is only inferred to be an array (from how it is used, or from a transform's output), the
    fix is unsafe: had it been a dict or a NumPy array, the assignment worked and `.at` would
    raise. Targets that are not a plain name (`self.x[i] = v`) are not fixed.

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
        if isinstance(target.value, ast.Name) and _always_a_container(target.value, ctx):
            return  # `counts = {}` ... `counts[k] = v`: known without evaluating the function
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
            # Only a value whose construction was followed is certainly an array; on a dict or a
            # NumPy array the assignment works and `.at` would raise.
            certain = array.shape is not None or _certainly_jax_array(target.value, ctx)
            fix = ctx.fix(
                f"Rewrite as `{name} = {name}.at[...].{method}(...)`",
                Applicability.SAFE if certain else Applicability.UNSAFE,
                [ctx.edit(node, replacement)],
            )
        kind = array.describe() if array.dtype and array.shape is not None else "JAX array"
        ctx.report(
            node,
            f"In-place update of `{snippet(ctx, target.value)}` ({kind}) raises TypeError",
            detail="JAX arrays are immutable, so this raises TypeError; use "
            f"`{name} = {name}.at[{index}].{method}(...)`.",
            fix=fix,
        )


_ARRAY_MODULES = ("jax.numpy.", "jax.lax.", "jax.random.", "jax.nn.")
_ARRAY_ANNOTATIONS = frozenset({"jax.Array", "jax.numpy.ndarray"})
_PYTREE_FUNCTIONS = frozenset(
    f"jax.lax.{name}"
    for name in (
        "all_gather",
        "all_to_all",
        "associative_scan",
        "cond",
        "fori_loop",
        "map",
        "optimization_barrier",
        "pmax",
        "pmean",
        "pmin",
        "ppermute",
        "pshuffle",
        "psum",
        "psum_scatter",
        "scan",
        "stop_gradient",
        "switch",
        "while_loop",
    )
)
"""``jax.lax`` functions that return their operands' pytree (a dict stays a dict), not an array."""


def _every_binding(name: ast.Name, ctx: CheckContext, holds: Callable[[Binding, ast.expr | None], bool]) -> bool:
    """Whether ``holds(binding, value)`` for every binding of ``name`` (``value``: what an ``=`` assigns)."""
    found = ctx.index.lookup(name.id, ctx.scope)
    if found is None:
        return False
    values = ctx.index.derived("jx601-assigned-values", _assigned_values)
    return all(holds(binding, values.get(id(binding.node))) for binding in found[1])


def _certainly_jax_array(name: ast.Name, ctx: CheckContext) -> bool:
    """Whether every binding of ``name`` makes it a JAX array: a call into JAX's array modules or an annotation."""

    def makes_an_array(binding: Binding, value: ast.expr | None) -> bool:
        if binding.kind is BindingKind.PARAM and isinstance(binding.node, ast.arg):
            annotation = binding.node.annotation
            return annotation is not None and ctx.qualname(annotation) in _ARRAY_ANNOTATIONS
        if not isinstance(value, ast.Call):
            return False
        callee = ctx.qualname(value.func)
        return callee is not None and callee.startswith(_ARRAY_MODULES) and callee not in _PYTREE_FUNCTIONS

    return _every_binding(name, ctx, makes_an_array)


_CONTAINER_DISPLAYS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
_CONTAINER_CALLS = frozenset(
    {
        "builtins.dict",
        "builtins.list",
        "builtins.set",
        "builtins.bytearray",
        "collections.defaultdict",
        "collections.OrderedDict",
        "collections.Counter",
    }
)


def _always_a_container(name: ast.Name, ctx: CheckContext) -> bool:
    """Whether every binding of ``name`` is an ``=`` of a dict, list or set display or constructor."""

    def makes_a_container(binding: Binding, value: ast.expr | None) -> bool:
        if binding.kind is not BindingKind.ASSIGN:
            return False
        if isinstance(value, ast.Call):
            return ctx.qualname(value.func) in _CONTAINER_CALLS
        return isinstance(value, _CONTAINER_DISPLAYS)

    return _every_binding(name, ctx, makes_a_container)


def _assigned_values(index: ModuleIndex) -> dict[int, ast.expr]:
    """``id`` of each plain name an ``=`` statement binds -> the value it gets."""
    found: dict[int, ast.expr] = {}
    for statement, _ in index.nodes.get(ast.Assign, ()):
        assert isinstance(statement, ast.Assign)
        for target in statement.targets:
            if isinstance(target, ast.Name):
                found[id(target)] = statement.value
    return found


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
    if not ctx.index.imports("jax.experimental.pallas"):
        return False
    for _ in range(_VIEW_STEPS):
        found = ctx.index.lookup(name, ctx.scope)
        if found is None:
            return False
        if any(binding.kind is BindingKind.PARAM for binding in found[1]):
            return True
        # `flat = ref.reshape(-1, 128)` then `flat[...] = v`: a view of a ref, stored through.
        assigned = ctx.index.single_assignment(name, ctx.scope)
        root = _root_name(assigned[0].value) if assigned is not None else None
        if root is None or not isinstance(assigned[0].value, ast.Attribute | ast.Subscript | ast.Call):
            return False
        if root.id == "ref" or root.id.endswith("_ref"):
            return True
        name = root.id
    return False


_VIEW_STEPS = 4
"""How many assignments back a view of a ref (``a = ref.at[i]``, ``b = a.reshape(...)``) is followed."""
