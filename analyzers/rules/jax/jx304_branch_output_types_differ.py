"""JX304: ``lax.cond``/``lax.switch`` branches return different structures, shapes or dtypes."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import MESSAGE_LIMIT, RelatedLocation
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge import lax_control_flow
from xlalens.analyzers.models.tracing.carry_checks import carry_text
from xlalens.analyzers.models.tracing.carry_types import BodyTypes, ContainerType, Leaf, Mismatch, Tree, compare

_WHAT = {"structure": "pytree structure", "shape": "shape", "dtype": "dtype"}


def _branches(node: ast.Call, ctx: CheckContext) -> tuple[str, list[ast.expr], list[ast.expr]] | None:
    """The primitive's short name, its branch expressions and its operand expressions."""
    primitive = lax_control_flow.signature(ctx.qualname(node.func))
    if primitive is None or primitive.carry is not None or node.keywords:
        return None
    if any(isinstance(a, ast.Starred) for a in node.args) or len(node.args) < len(primitive.params):
        return None
    functions = [node.args[primitive.position(param)] for param in primitive.functions]
    if primitive.functions == ("branches",):
        elements = ctx.index.literal_elements(functions[0], ctx.scope)
        if elements is None or len(elements) < 2:
            return None
        functions = elements
    return primitive.qualname.rsplit(".", 1)[-1], list(functions), primitive.operands(node)


def _label(primitive: str, position: int) -> str:
    if primitive == "cond":
        return ("true_fun", "false_fun")[position]
    return f"branch {position}"


@register_rule
class BranchOutputTypesDiffer(Rule):
    """## What it does
    Finds `lax.cond` and `lax.switch` calls whose branches return values of different types:
    another pytree structure, another shape, or another dtype for some output leaf.

    ## Why is this bad?
    `cond` and `switch` compile every branch and pick one at run time, so all branches must
    produce exactly the same output type. JAX fails while tracing with `TypeError: cond branches
    must have equal output types` (or `... must have the same pytree structure`). Unlike a loop
    carry, a Python scalar does not adapt here: `1.5` (weak `float32`) against a `float16` array
    is rejected.

    ## Example
    ```python
    import jax.numpy as jnp
    from jax import lax

    x = jnp.ones(3)
    y = lax.cond(x.sum() > 0, lambda v: v, lambda v: v.astype(jnp.float16), x)
    ```

    Use instead:
    ```python
    import jax.numpy as jnp
    from jax import lax

    x = jnp.ones(3)
    y = lax.cond(x.sum() > 0, lambda v: v, lambda v: v.astype(jnp.float16).astype(jnp.float32), x)
    ```

    Make every branch return the same containers, shapes and dtypes; cast with
    `.astype(x.dtype)` or build constants with an explicit `dtype=`.

    ## References
    - JAX docs: `jax.lax.cond`, `jax.lax.switch`
    """

    code = "JX304"
    raises = ("TypeError",)
    message = "cond/switch branches return different types"
    calculator = "carry-check"
    explainer = "control-flow#branch-output-types-differ"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = frozenset({"jax.lax.cond", "jax.lax.switch"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        found = _branches(node, ctx)
        if found is None:
            return
        primitive, branches, operand_exprs = found
        types = BodyTypes(ctx)
        operands = [types.value_at(o, ctx.scope) for o in operand_exprs]
        outputs: list[Tree] = []
        for branch in branches:
            body = types.body_at(branch, ctx.scope)
            outputs.append(None if body is None else types.call(body[0], list(operands), bound=body[1]))
        first = outputs[0]
        for position, output in enumerate(outputs[1:], start=1):
            mismatches = compare(first, output, "", ignore_weak=False)
            if any(m.kind == "structure" for m in mismatches):
                # JAX compares the structure first and reports nothing else when it differs.
                mismatches = [m for m in mismatches if m.kind == "structure"]
            if mismatches:
                inputs = None
                first_text, other_text = carry_text(first), carry_text(output)
                if primitive == "cond" and first_text is not None and other_text is not None:
                    inputs = {"primitive": "cond", "init": first_text, "out": other_text}
                self.emit(ctx, primitive, node, branches[position], position, mismatches[0], inputs)
                return

    @staticmethod
    def emit(
        ctx: CheckContext,
        primitive: str,
        call: ast.Call,
        branch: ast.expr,
        position: int,
        mismatch: Mismatch,
        calculator: dict[str, str] | None,
    ) -> None:
        first, other = _label(primitive, 0), _label(primitive, position)
        returns = f"{first} returns {mismatch.expected.describe()} but {other} returns {mismatch.actual.describe()}"
        where = f" at `output{mismatch.path}`" if mismatch.path else ""
        related: list[RelatedLocation] = []
        for label, tree in ((first, mismatch.expected), (other, mismatch.actual)):
            origin = tree.origin if isinstance(tree, Leaf | ContainerType) else None
            if origin is not None:
                text = f"{label} returns {tree.describe()} here"
                related.append(RelatedLocation(ctx.path, ctx.source.node_range(origin), text))
        related.append(RelatedLocation(ctx.path, ctx.source.node_range(branch), f"{other} is passed here"))
        # Reported at the call: the branches differ from each other, and may be defined anywhere.
        ctx.report(
            call,
            _headline(
                f"`{primitive}` branches return different {_WHAT[mismatch.kind]}s{where}",
                returns,
                f"{mismatch.expected.describe()} vs {mismatch.actual.describe()}",
            ),
            detail=f"The branches differ: {returns}.",
            related=related,
            calculator=calculator,
        )


def _headline(what: str, returns: str, types: str) -> str:
    """What differs, with what each branch returns (or just the two types) when that still fits a headline."""
    return next((text for text in (f"{what}: {returns}", f"{what}: {types}") if len(text) <= MESSAGE_LIMIT), what)
