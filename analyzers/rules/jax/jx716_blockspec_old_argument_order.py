"""JX716: ``pl.BlockSpec(index_map, block_shape)``, the argument order Pallas dropped in JAX 0.4.34."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.migrations import USAGE_CHANGES
from xlalens.analyzers.rules._migrations import compatibility_code, judge_usage, short_code, upgrade_finding
from xlalens.analyzers.semantics.values import FunctionRef, Seq

_CHANGE = USAGE_CHANGES["blockspec-argument-order"]


def _function(ctx: CheckContext, node: ast.expr) -> bool:
    if isinstance(node, ast.Lambda):
        return True
    if isinstance(node, ast.Name) and ctx.index.local_function(node.id, ctx.scope) is not None:
        return True
    return isinstance(ctx.value(node), FunctionRef)


def _shape(ctx: CheckContext, node: ast.expr) -> bool:
    return isinstance(node, ast.Tuple | ast.List) or isinstance(ctx.value(node), Seq)


@register_rule
class BlockSpecOldArgumentOrder(Rule):
    """## What it does
    Finds `pl.BlockSpec(index_map, block_shape)`: a function first and a shape second, the order
    Pallas used before JAX 0.4.31.

    ## Why is this bad?
    `BlockSpec` takes `block_shape` first since JAX 0.4.31, which deprecated the old order, and
    0.4.34 stopped accepting it. The constructor does not check: on JAX 0.10.2 the function is
    stored as the block shape, and `pallas_call` fails with `TypeError: 'function' object is not
    iterable`. xlalens's other Pallas checks cannot read such a spec either.

    ## Example
    ```python
    from jax.experimental import pallas as pl

    spec = pl.BlockSpec(lambda i: (i, 0), (8, 128))
    ```

    Use instead:
    ```python
    from jax.experimental import pallas as pl

    spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
    ```

    ## Fix safety
    The fix swaps the two arguments, which is safe: it is the spec the old order described.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - Pallas changelog: released with JAX 0.4.31 (order changed, old order deprecated) and 0.4.34
      (old order no longer supported)
    """

    code = "JX716"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "BlockSpec arguments in the old order"
    explainer = "upgrading#blockspec-argument-order"
    fix_title = "Swap to `BlockSpec(block_shape, index_map)`"
    fix_availability = FixAvailability.ALWAYS
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names: ClassVar[frozenset[str] | None] = frozenset({"jax.experimental.pallas.BlockSpec"})
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if len(node.args) < 2 or any(isinstance(arg, ast.Starred) for arg in node.args[:2]):
            return
        first, second = node.args[:2]
        if not (_function(ctx, first) and _shape(ctx, second)):
            return
        judged = judge_usage(ctx, _CHANGE)
        if judged is None or compatibility_code(node, ctx):
            return
        swapped = [ctx.edit(first, ctx.segment(second)), ctx.edit(second, ctx.segment(first))]
        message, detail = upgrade_finding(
            "`BlockSpec(index_map, block_shape)`",
            judged,
            "`BlockSpec(block_shape, index_map)`",
            f"The block shape comes first; this spec's shape would be the function `{short_code(ctx, first, 60)}`.",
        )
        ctx.report(
            first,
            message,
            detail=detail,
            fix=ctx.fix("Swap to `BlockSpec(block_shape, index_map)`", Applicability.SAFE, swapped),
            severity=judged.severity,
        )
