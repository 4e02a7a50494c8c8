"""JX802: a 64-bit dtype requested from JAX in a module that never turns on ``jax_enable_x64``."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge.x64 import X64_ATTRIBUTES, X64_STRINGS, dtype_position, truncated_dtype
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.analyzers.semantics.values import Array, Const, ModuleRef, TracedTree

_DTYPE_TAKERS = ("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.scipy.")
_DTYPE_KEYWORDS = ("dtype", "new_dtype")


def _mentions_x64(index: ModuleIndex, text: str) -> bool:
    """Whether the module names the x64 option anywhere: it may turn it on, or pick dtypes by it."""
    # Every spelling holds "x64" or "X64": most modules never write either, and looking for them
    # in the text costs far less than walking every node of the tree.
    if "x64" not in text and "X64" not in text:
        return False
    for node in ast.walk(index.tree):
        if isinstance(node, ast.Constant) and node.value in X64_STRINGS:
            return True
        if isinstance(node, ast.Attribute) and node.attr in X64_ATTRIBUTES:
            return True
        if isinstance(node, ast.alias) and node.name.rsplit(".", 1)[-1] in X64_ATTRIBUTES:
            return True
    return False


def _may_ask_64_bits_without_x64(index: ModuleIndex, text: str) -> bool:
    """Whether the module may ask for a 64-bit dtype and never names the x64 option.

    Every 64-bit dtype is spelled with "64" or "128" (``float64``, ``np.int64``, ``"complex128"``)
    in the module that asks for it: without those digits no dtype a call receives can be one,
    and the dtypes that come from parameters need not be evaluated.
    """
    return ("64" in text or "128" in text) and not _mentions_x64(index, text)


@register_rule
class Float64WithoutX64(Rule):
    """## What it does
    Finds `float64`, `int64`, `uint64` and `complex128` requested from JAX (`dtype=` of a `jax.numpy`,
    `jax.random` or `jax.lax` function, a positional dtype, `.astype(...)` of a JAX array, or
    `jnp.float64(x)`) in a module that never mentions `jax_enable_x64` (no `jax.config.update`, no
    `JAX_ENABLE_X64`, no `jax.enable_x64`). When another module of the same package mentions it (an
    entry point that turns x64 on, a mode switch), whether x64 is on is decided at run time, and
    `xlalens check` and the language server stay silent.

    ## Why is this bad?
    JAX computes in 32 bits unless `jax_enable_x64` is on. A 64-bit request is not an error: JAX warns
    once per call site, truncates to `float32` (`int32`, `uint32`, `complex64`) and carries on. The
    program then has about 7 significant digits instead of 16, and integers wrap at 2**31: summing ten
    million `0.1`s gives 1000000.06 instead of 1000000.0, and hashing token ids with a large multiplier
    gives negative ids. The warning is easy to miss in a training log, and nothing else says so.

    ## Example
    ```python
    import jax.numpy as jnp

    total = jnp.zeros((), dtype=jnp.float64)
    ```

    Use instead:
    ```python
    import jax

    jax.config.update("jax_enable_x64", True)

    import jax.numpy as jnp

    total = jnp.zeros((), dtype=jnp.float64)
    ```

    ## References
    - JAX sharp bits: "Double (64-bit) precision"
    - JAX issues 1333 and 17366
    """

    code = "JX802"
    message = "64-bit dtype requested without jax_enable_x64: computed in 32 bits"
    explainer = "silent-failures#float64-without-x64"
    severity = Severity.WARNING
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names: ClassVar[frozenset[str] | None] = frozenset()
    call_prefixes = _DTYPE_TAKERS
    call_attributes = frozenset({"astype"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if ctx.settings.x64_in_package or not ctx.index.derived(
            "may-ask-64-bits-without-x64", lambda index: _may_ask_64_bits_without_x64(index, ctx.source.text)
        ):
            return
        requested = self.requested_dtype(node, ctx)
        if requested is None:
            return
        expr, (wide, narrow) = requested
        ctx.report(
            expr,
            f"`{snippet(ctx, expr)}` asks for {wide}, but x64 is off: JAX computes in {narrow}",
            detail=f"`{ctx.segment(expr)}` asks for {wide}, but this module never turns on `jax_enable_x64`: JAX "
            f"warns once and computes in {narrow} ({_precision(narrow)}); enable x64 with "
            '`jax.config.update("jax_enable_x64", True)` before creating arrays, or ask for '
            f"{narrow}.",
        )

    def requested_dtype(self, call: ast.Call, ctx: CheckContext) -> tuple[ast.expr, tuple[str, str]] | None:
        """The dtype expression of ``call`` (or the call itself, for ``jnp.float64(x)``) if it is truncated."""
        name = ctx.qualname(call.func)
        if name is not None and name.startswith("jax.numpy."):
            scalar = truncated_dtype(name)
            if scalar is not None:
                return call, scalar
        candidates: list[ast.expr] = []
        if name is not None and name.startswith(_DTYPE_TAKERS):
            candidates.extend(k.value for k in call.keywords if k.arg in _DTYPE_KEYWORDS)
            position = dtype_position(name)
            if position is not None and position < len(call.args):
                candidates.append(call.args[position])
        elif isinstance(call.func, ast.Attribute) and call.func.attr == "astype" and call.args:
            # The receiver's value costs an evaluation of the function: asked only for a 64-bit dtype.
            wide = truncated_dtype(self.dtype_text(call.args[0], ctx))
            if wide is None:
                return None
            receiver = ctx.value(call.func.value)
            if (isinstance(receiver, Array) and receiver.library == "jax") or isinstance(receiver, TracedTree):
                return call.args[0], wide
            return None
        for candidate in candidates:
            found = truncated_dtype(self.dtype_text(candidate, ctx))
            if found is not None:
                return candidate, found
        return None

    @staticmethod
    def dtype_text(expr: ast.expr, ctx: CheckContext) -> str | None:
        """The qualified name or string a dtype expression denotes."""
        name = ctx.qualname(expr)
        if name is not None:
            return name
        value = ctx.value(expr)
        if isinstance(value, ModuleRef):
            return value.qualname
        if isinstance(value, Const) and isinstance(value.value, str):
            return value.value
        return None


def _precision(dtype: str) -> str:
    """What the narrower type keeps, in numbers."""
    if dtype.startswith("float"):
        return "about 7 significant digits instead of 16"
    if dtype.startswith("complex"):
        return "about 7 significant digits per part instead of 16"
    if dtype.startswith("uint"):
        return "values wrap at 2**32"
    return "values wrap at 2**31"
