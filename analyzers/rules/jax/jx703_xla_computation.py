"""JX703: ``jax.xla_computation``, deleted in JAX 0.4.34."""

from __future__ import annotations

import ast

from xlalens.analyzers.core.diagnostics import Applicability, Fix, Range
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.knowledge.migrations import NameMigration
from xlalens.analyzers.rules._migrations import NameMigrationRule, parent_of, spell


@register_rule
class XlaComputation(NameMigrationRule):
    """## What it does
    Finds `jax.xla_computation`, imported or reached as an attribute.

    ## Why is this bad?
    JAX deprecated `xla_computation` in 0.4.30 and deleted it in 0.4.34: on JAX 0.10.2
    `jax.xla_computation` raises `AttributeError: module 'jax' has no attribute
    'xla_computation'`. The ahead-of-time API gives the same HLO:
    `jax.jit(f).lower(*args).compiler_ir('hlo')` (and `.as_hlo_text()` on it).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    hlo = jax.xla_computation(jnp.sin)(1.0).as_hlo_text()
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    hlo = jax.jit(jnp.sin).lower(1.0).compiler_ir("hlo").as_hlo_text()
    ```

    ## Fix safety
    `jax.xla_computation(f)(*args)` becomes `jax.jit(f).lower(*args).compiler_ir('hlo')`. The fix is
    unsafe: the module is built by a different path (the jit wrapper's name and argument
    layout can differ in the HLO text), and options such as `backend=` or `axis_env=` are not
    carried over (a call with them gets no fix). Other uses get a display-only note.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.4.30 (deprecated), 0.4.34 (deleted, with the AOT replacement)
    """

    code = "JX703"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "removed jax.xla_computation"
    explainer = "upgrading#xla-computation"
    fix_title = "Use `jax.jit(f).lower(*args).compiler_ir('hlo')`"

    def reference_fix(self, node: ast.Attribute, entry: NameMigration, ctx: CheckContext) -> Fix | None:
        """``jax.xla_computation(f)(*args)`` -> ``jax.jit(f).lower(*args).compiler_ir('hlo')``."""
        inner = parent_of(ctx, node)
        if not (isinstance(inner, ast.Call) and inner.func is node and len(inner.args) == 1 and not inner.keywords):
            return self.manual_fix(entry)
        outer = parent_of(ctx, inner)
        if not (isinstance(outer, ast.Call) and outer.func is inner) or isinstance(inner.args[0], ast.Starred):
            return self.manual_fix(entry)
        spelled = spell(ctx, "jax.jit")
        if spelled is None:
            return self.manual_fix(entry)
        jit, imports = spelled
        # The call's parenthesised arguments, exactly as written.
        arguments = ctx.source.segment(Range(ctx.source.node_range(outer.func).end, ctx.source.node_range(outer).end))
        text = f"{jit}({ctx.segment(inner.args[0])}).lower{arguments}.compiler_ir('hlo')"
        return ctx.fix(self.fix_title or "", Applicability.UNSAFE, [*imports, ctx.edit(outer, text)])
