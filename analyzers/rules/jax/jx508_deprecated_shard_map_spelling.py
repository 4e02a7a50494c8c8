"""JX508: ``jax.experimental.shard_map.shard_map`` and ``check_rep=``, the spellings JAX replaced."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Edit, Fix, Position, Range, shorten
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.migrations import USAGE_CHANGES
from xlalens.analyzers.models.sharding.shard_map import EXPERIMENTAL_SHARD_MAP, PARTIAL, SHARD_MAP_NAMES
from xlalens.analyzers.rules._migrations import compatibility_code, judge_change
from xlalens.analyzers.semantics.names import Scope

_EXPERIMENTAL_MODULE = "jax.experimental.shard_map"
# The experimental shard_map's parameters in order; jax.shard_map takes all but f by keyword.
_PARAMETERS = ("f", "mesh", "in_specs", "out_specs", "check_vma")
_WARNING = "jax.experimental.shard_map is deprecated in v0.8.0. Used jax.shard_map instead."
_EXPERIMENTAL = USAGE_CHANGES["experimental-shard-map"]


@register_rule
class DeprecatedShardMapSpelling(Rule):
    """## What it does
    Finds `jax.experimental.shard_map.shard_map` (imported with `from jax.experimental.shard_map
    import shard_map`, or reached as an attribute), and the old way of calling it applied to
    `jax.shard_map`: `check_rep=`, or `mesh`, `in_specs` and `out_specs` passed by position.
    Imports and calls in an `except` handler or under an `if` that tests a version or `hasattr`
    (compatibility code for older JAX) are not reported.

    ## Why is this bad?
    `jax.experimental.shard_map.shard_map` is deprecated since JAX 0.8.0: in JAX 0.10 it still
    works, but reaching it emits `DeprecationWarning: jax.experimental.shard_map is deprecated
    in v0.8.0. Used jax.shard_map instead.`, and it is kept only as a legacy alias. It takes
    `mesh`, `in_specs` and `out_specs` by position and names the replication check
    `check_rep`; `jax.shard_map` takes them by keyword only and calls the check `check_vma`, so
    `jax.shard_map(f, mesh, in_specs, out_specs)` raises `TypeError: shard_map() takes from 0
    to 1 positional arguments but 4 were given` and `jax.shard_map(..., check_rep=False)` raises
    `TypeError: shard_map() got an unexpected keyword argument 'check_rep'`. The experimental
    spelling is a warning (deprecated but still working on 0.10.2), and is not reported when
    `jax-version` (or the project's pin) is older than 0.8.0, where it is the only spelling; the
    `jax.shard_map` calls are errors.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental.shard_map import shard_map
    from jax.sharding import AxisType, PartitionSpec as P

    mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
    f = shard_map(lambda a: a * 2, mesh, P("x"), P("x"), check_rep=False)
    y = f(jnp.ones(16))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax import shard_map
    from jax.sharding import AxisType, PartitionSpec as P

    mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
    f = shard_map(lambda a: a * 2, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
    y = f(jnp.ones(16))
    ```

    ## Fix safety
    The fix imports `shard_map` from `jax` (or spells the call `jax.shard_map`), names the
    positional `mesh`, `in_specs`, `out_specs` and `check_rep` arguments, and renames
    `check_rep=` to `check_vma=`. It is safe: the experimental function forwards exactly these
    arguments to the same implementation (`check_rep` becomes `check_vma`, no manual
    `axis_names`). When a name imported from the experimental module is used in a way the
    fix cannot rewrite (passed along, called with `*args`), the import is reported without a fix.
    A `jax.shard_map` call given positional arguments after `f` (a TypeError) gets them named
    in the experimental order (`mesh`, `in_specs`, `out_specs`, `check_vma`); that fix is
    marked unsafe, as the order is what the old function took, not something the call says.

    ## References
    - JAX changelog, 0.8.0: `jax.experimental.shard_map` deprecated in favour of `jax.shard_map`
    - `jax/experimental/shard_map.py`
    """

    code = "JX508"
    raises = ("DeprecationWarning", "TypeError")
    message = "deprecated shard_map spelling"
    explainer = "sharding#shard-map-spelling"
    fix_title = "Use `jax.shard_map` with keyword arguments and `check_vma`"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.ImportFrom, ast.Call)
    call_names: ClassVar[frozenset[str] | None] = SHARD_MAP_NAMES | {PARTIAL}
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.ImportFrom):
            self.check_import(node, ctx)
        elif isinstance(node, ast.Call):
            self.check_call(node, ctx)

    def check_import(self, node: ast.ImportFrom, ctx: CheckContext) -> None:
        if node.level or node.module != _EXPERIMENTAL_MODULE or compatibility_code(node, ctx):
            return
        judged = judge_change(ctx, _EXPERIMENTAL)
        if judged is None:
            return  # a jax-version before 0.8.0: the experimental module is the only one
        for alias in node.names:
            if alias.name != "shard_map":
                continue
            bound = alias.asname or alias.name
            fix = self.import_fix(node, bound, ctx) if len(node.names) == 1 else None
            ctx.report(
                alias,
                f"`{_EXPERIMENTAL_MODULE}.shard_map` is deprecated; import `shard_map` from `jax`",
                detail=f'Importing it emits "DeprecationWarning: {_WARNING}" `jax.shard_map` takes `mesh`, '
                "`in_specs` and `out_specs` by keyword and `check_vma` instead of `check_rep`.",
                fix=fix,
                severity=judged[0],
            )

    def check_call(self, node: ast.Call, ctx: CheckContext) -> None:
        callee, offset = _callee(node, ctx)
        if callee is None:
            return
        qualname = ctx.index.qualname(callee, ctx.scope)
        if qualname not in SHARD_MAP_NAMES or compatibility_code(node, ctx):
            return
        if qualname == EXPERIMENTAL_SHARD_MAP and isinstance(callee, ast.Attribute):
            judged = judge_change(ctx, _EXPERIMENTAL)
            if judged is None:
                return
            spelling = ctx.module_spelling("jax", "jax")
            edits = _keyword_edits(node, offset, ctx)
            fix = None
            if edits is not None and spelling is not None:
                jax_name, imports = spelling
                fix = ctx.fix(
                    "Use `jax.shard_map` with keyword arguments and `check_vma`",
                    Applicability.SAFE,
                    [*imports, ctx.edit(callee, f"{jax_name}.shard_map"), *edits],
                )
            ctx.report(
                callee,
                f"`{shorten(ctx.segment(callee), 50)}` is deprecated; use `jax.shard_map`",
                detail=f'Reaching `{ctx.segment(callee)}` emits "DeprecationWarning: {_WARNING}" `jax.shard_map` '
                "takes `mesh`, `in_specs` and `out_specs` by keyword and `check_vma` instead of `check_rep`.",
                fix=fix,
                severity=judged[0],
            )
            return
        if qualname in SHARD_MAP_NAMES and qualname != EXPERIMENTAL_SHARD_MAP:
            if offset == 0 and len(node.args) > 1 and not any(isinstance(a, ast.Starred) for a in node.args):
                self.report_positional(node, ctx)
                return
            for keyword in node.keywords:
                if keyword.arg == "check_rep":
                    ctx.report(
                        keyword,
                        "`jax.shard_map` has no `check_rep` parameter; it is called `check_vma` now",
                        detail="JAX raises \"TypeError: shard_map() got an unexpected keyword argument 'check_rep'\". "
                        "`check_vma` has the same meaning.",
                        fix=ctx.fix("Rename `check_rep` to `check_vma`", Applicability.SAFE, [_rename(keyword, ctx)]),
                    )

    @staticmethod
    def report_positional(node: ast.Call, ctx: CheckContext) -> None:
        """``jax.shard_map(f, mesh, in_specs, out_specs)``: the old positional order on the new function."""
        count = len(node.args)
        edits = _keyword_edits(node, 0, ctx)
        names = ", ".join(f"`{name}=`" for name in _PARAMETERS[1:count])
        fix = None
        if edits is not None:
            fix = ctx.fix(f"Pass {names} by keyword", Applicability.UNSAFE, edits)
        ctx.report(
            node.args[1],
            f"`jax.shard_map` takes only `f` by position, but this call passes {count} positional arguments",
            detail="They are in the order of the deprecated `jax.experimental.shard_map.shard_map(f, mesh, in_specs, "
            f'out_specs, check_rep)`: JAX raises "TypeError: shard_map() takes from 0 to 1 positional arguments but '
            f'{count} were given". Name them ({names}).',
            fix=fix,
        )

    @staticmethod
    def import_fix(node: ast.ImportFrom, bound: str, ctx: CheckContext) -> Fix | None:
        """Import from ``jax`` and rewrite every call through ``bound``; ``None`` if a use cannot be rewritten."""
        alias = node.names[0]
        edits = [ctx.edit(node, f"from jax import shard_map{f' as {alias.asname}' if alias.asname else ''}")]
        uses = 0
        for call, scope in ctx.index.nodes.get(ast.Call, ()):
            assert isinstance(call, ast.Call)
            callee, offset = _callee_in(call, scope, ctx)
            if not (isinstance(callee, ast.Name) and callee.id == bound):
                continue
            if ctx.index.qualname(callee, scope) != EXPERIMENTAL_SHARD_MAP:
                continue
            keyword_edits = _keyword_edits(call, offset, ctx)
            if keyword_edits is None:
                return None
            edits.extend(keyword_edits)
            uses += 1
        # Any other read of the name (passed along, stored) could not be rewritten.
        reads = sum(
            1
            for each in ast.walk(ctx.index.tree)
            if isinstance(each, ast.Name) and each.id == bound and isinstance(each.ctx, ast.Load)
        )
        if reads != uses:
            return None
        return ctx.fix("Import `shard_map` from `jax` and pass its arguments by keyword", Applicability.SAFE, edits)


def _callee(node: ast.Call, ctx: CheckContext) -> tuple[ast.expr | None, int]:
    """The shard_map expression a call uses and where its own arguments start (1 for a partial)."""
    return _callee_in(node, ctx.scope, ctx)


def _callee_in(node: ast.Call, scope: Scope, ctx: CheckContext) -> tuple[ast.expr | None, int]:
    if ctx.index.qualname(node.func, scope) == PARTIAL and node.args:
        return node.args[0], 1
    return node.func, 0


def _keyword_edits(call: ast.Call, offset: int, ctx: CheckContext) -> list[Edit] | None:
    """Edits that name the positional arguments after ``f`` and rename ``check_rep``; ``None`` if impossible."""
    args = call.args[offset:]
    if any(isinstance(arg, ast.Starred) for arg in args) or any(k.arg in (None, "f") for k in call.keywords):
        return None
    if len(args) > len(_PARAMETERS) or (not args and offset == 0):
        return None
    edits = []
    for position, arg in enumerate(args[1:], start=1):
        start = ctx.source.node_range(arg).start
        edits.append(Edit(Range(start, start), f"{_PARAMETERS[position]}="))
    edits.extend(_rename(keyword, ctx) for keyword in call.keywords if keyword.arg == "check_rep")
    return edits


def _rename(keyword: ast.keyword, ctx: CheckContext) -> Edit:
    """Rename ``check_rep=`` to ``check_vma=`` (the keyword's name only)."""
    start = ctx.source.node_range(keyword).start
    return Edit(Range(start, Position(start.line, start.column + len("check_rep"))), "check_vma")
