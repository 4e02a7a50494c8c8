"""JX804: a large array a jitted function closes over (or a ``partial`` binds) instead of taking as an argument."""

from __future__ import annotations

import ast
import math
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge.array_sizes import SHAPE_PRESERVING, generator_method, shaped_function
from xlalens.analyzers.knowledge.arrays import dtype_name
from xlalens.analyzers.knowledge.transforms import jit_transforms, transform_spec
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.classes import self_assignments
from xlalens.analyzers.semantics.names import BindingKind, ModuleIndex, Scope
from xlalens.analyzers.semantics.values import Array, Const, ModuleRef, Seq
from xlalens.explainers.calculators import dtypes

_UNIFORM_CONSTRUCTORS = frozenset(
    f"{module}.{name}"
    for module in ("numpy", "jax.numpy")
    for name in ("zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like")
)
"""Arrays of one repeated value: JAX embeds them as a splat (one element), whatever their size."""

_RANGES = frozenset({"numpy.arange", "jax.numpy.arange"})

_METADATA = frozenset({"shape", "dtype", "ndim", "size", "nbytes", "itemsize"})
_METADATA_FUNCTIONS = frozenset(
    {"builtins.len", "numpy.shape", "numpy.ndim", "numpy.size", "jax.numpy.shape", "jax.numpy.ndim", "jax.numpy.size"}
)


def _metadata_reads(index: ModuleIndex) -> frozenset[int]:
    """Expressions only read for their type (``T.shape[0]``, ``len(T)``): these embed nothing."""
    found = {id(node.value) for node, _ in index.nodes[ast.Attribute] if node.attr in _METADATA}  # type: ignore[attr-defined]
    for node, scope in index.nodes[ast.Call]:
        assert isinstance(node, ast.Call)
        if (
            len(node.args) == 1
            and isinstance(node.func, ast.Name | ast.Attribute)
            and index.qualname(node.func, scope) in _METADATA_FUNCTIONS
        ):
            found.add(id(node.args[0]))
    return frozenset(found)


@register_rule
class LargeConstantCapturedByJit(Rule):
    """## What it does
    Finds NumPy or JAX arrays of known size at or above the `captured-constant-bytes` setting (1 MiB by
    default) that a jitted function reads from outside instead of taking as an argument: a module-level
    or enclosing-function variable, an attribute of `self` in a jitted bound method, or an argument bound
    with `functools.partial(f, table)` inside `jax.jit(...)`. Arrays of one repeated value (`np.ones`,
    `jnp.zeros`, `np.full`) are left alone: JAX embeds them as a single element.

    ## Why is this bad?
    A captured array is not an argument: JAX embeds its values into the compiled program as a constant.
    The program text grows with the array (a 2 MiB table adds about 4 million characters of StableHLO),
    XLA compiles and constant-folds through it, every recompilation (a new shape, a new static argument)
    embeds and copies it again, and the persistent compilation cache stores one copy per entry. Nothing
    warns below 2 GB (`jax_captured_constants_warn_bytes`). Passed as an argument, the same array
    stays on the device once and the program holds only its shape.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    import numpy as np

    TABLE = np.random.default_rng(0).normal(size=(1024, 512)).astype(np.float32)


    @jax.jit
    def embed(ids):
        return jnp.take(TABLE, ids, axis=0)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    import numpy as np

    TABLE = np.random.default_rng(0).normal(size=(1024, 512)).astype(np.float32)


    @jax.jit
    def embed(table, ids):
        return jnp.take(table, ids, axis=0)
    ```

    ## Options
    - `captured-constant-bytes`: the smallest captured array reported, in bytes (default 1048576).

    ## References
    - JAX docs: "Constants in JAX programs" (internals/constants)
    - JAX issues 10596 and 14655
    """

    code = "JX804"
    message = "Large array captured by a jitted function: embedded in the compiled program"
    explainer = "silent-failures#large-captured-constants"
    severity = Severity.WARNING
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Name, ast.Attribute, ast.Call)
    needs_traced = False
    call_names = jit_transforms()

    def __init__(self) -> None:
        self.reported: set[tuple[int, str]] = set()

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.Call):
            self.check_partial(node, ctx)
            return
        traced = ctx.traced_function
        if traced is None or not traced.stages or not isinstance(getattr(node, "ctx", None), ast.Load):
            return
        if isinstance(node, ast.Attribute) and node.attr in _METADATA:
            return
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or not self.from_outside(root, traced.node, ctx):
            return
        if id(node) in ctx.index.derived("metadata-reads", _metadata_reads):
            return
        size = self.embedded_size(node, ctx)
        key = (id(traced.node), ctx.segment(node))
        if size is None or key in self.reported:
            return
        self.reported.add(key)
        described, nbytes = size
        where = "closes over" if isinstance(node, ast.Name) else "reads"
        ctx.report(
            node,
            f"The jitted function {where} `{snippet(ctx, node)}`, a {described} array of {_mib(nbytes)}",
            detail=f"JAX embeds `{ctx.segment(node)}` in the compiled program as a constant (compiled and copied "
            "again on every recompilation); pass it as an argument.",
        )

    def check_partial(self, call: ast.Call, ctx: CheckContext) -> None:
        """``jax.jit(functools.partial(f, table))``: the bound arrays become constants of the program."""
        spec = transform_spec(ctx.qualname(call.func))
        if spec is None or not spec.is_jit or not call.args:
            return
        bound = call.args[0]
        if not (isinstance(bound, ast.Call) and ctx.qualname(bound.func) == "functools.partial"):
            return
        for argument in [*bound.args[1:], *(k.value for k in bound.keywords)]:
            size = self.embedded_size(argument, ctx)
            if size is None:
                continue
            described, nbytes = size
            ctx.report(
                call,
                f"Jitted `functools.partial` binds `{snippet(ctx, argument)}`, a {described} array of {_mib(nbytes)}",
                detail=f"`functools.partial` binds `{ctx.segment(argument)}` into the jitted function: JAX embeds it "
                "in the compiled program as a constant (compiled and copied again on every recompilation); pass it "
                "as an argument.",
            )
            return

    @staticmethod
    def from_outside(name: ast.Name, traced_node: ast.AST, ctx: CheckContext) -> bool:
        """Whether ``name`` is bound outside every traced function (a module variable, a factory's local),
        or is the unmapped ``self`` of a jitted bound method."""
        found = ctx.index.lookup(name.id, ctx.scope)
        if found is None:
            return False
        owner, bindings = found
        if owner.node is traced_node and any(b.kind is BindingKind.PARAM for b in bindings):
            traced = ctx.traced_function
            return traced is not None and bool(traced.receivers) and name.id not in traced.traced_params
        scope: Scope | None = owner
        while scope is not None:
            if scope.is_function and id(scope.node) in ctx.traced:
                return False
            scope = scope.parent
        return True

    @staticmethod
    def embedded_size(expr: ast.expr, ctx: CheckContext) -> tuple[str, int] | None:
        """``(aval, bytes)`` of a concrete, non-uniform array of at least the configured size."""
        found = _Sizer(ctx).array(expr, ctx.scope, depth=6)
        if found is None:
            return None
        shape, dtype = found
        dtype = dtypes.x32(dtype)
        try:
            nbytes = dtypes.lookup(dtype).nbytes(math.prod(shape))
        except ValueError:
            return None  # a dtype the table does not know
        if nbytes < ctx.settings.captured_constant_bytes:
            return None
        return dtypes.aval(dtype, shape), nbytes


class _Sizer:
    """The shape and dtype of a concrete array, from the interpreter or from the expression that built it:
    the definitions behind names and ``self`` attributes, random generators, ranges and elementwise
    functions of them. Arrays of one repeated value (``np.ones``) give None: JAX embeds them as one element."""

    def __init__(self, ctx: CheckContext) -> None:
        self.ctx = ctx
        self.index = ctx.index

    def array(self, expr: ast.expr, scope: Scope, depth: int, whole: bool = True) -> tuple[tuple[int, ...], str] | None:
        """``whole``: ``expr`` is the captured array itself (not an operand of what built it), so a
        uniform constructor means a splat constant."""
        if depth == 0 or (whole and self.uniform(expr, scope, depth)):
            return None
        value = self.ctx.interpreter.value_of(expr, scope)
        if isinstance(value, Array):
            if value.traced or value.library not in ("jax", "numpy"):
                return None
            if value.shape is not None and all(isinstance(d, int) for d in value.shape):
                dtype = value.dtype or self.dtype_keyword(expr, scope)
                if dtype is not None:
                    return tuple(value.shape), dtype  # type: ignore[arg-type]
        definition = self.definition(expr, scope)
        if definition is not None:
            return self.array(definition[0], definition[1], depth - 1, whole)
        if not isinstance(expr, ast.Call):
            return None
        return self.built(expr, scope, depth)

    def built(self, call: ast.Call, scope: Scope, depth: int) -> tuple[tuple[int, ...], str] | None:
        func = call.func
        name = self.index.qualname(func, scope) if isinstance(func, ast.Name | ast.Attribute) else None
        if name in SHAPE_PRESERVING and call.args:
            return self.array(call.args[0], scope, depth - 1, whole=False)
        if name in _RANGES and len(call.args) == 1:
            length = self.ints(call.args[0], scope)
            keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
            dtype = dtype_name(self.dtype_text(keywords["dtype"], scope)) if "dtype" in keywords else "int32"
            return (length, dtype) if length is not None and dtype is not None else None
        source = shaped_function(name)
        if source is None and name is None and isinstance(func, ast.Attribute):
            if func.attr in ("astype", "reshape") and call.args:
                inner = self.array(func.value, scope, depth - 1, whole=False)
                if inner is None:
                    return None
                if func.attr == "astype":
                    dtype = dtype_name(self.dtype_text(call.args[0], scope))
                    return (inner[0], dtype) if dtype is not None else None
                shape = self.ints(call.args if len(call.args) > 1 else call.args[0], scope)
                return (shape, inner[1]) if shape is not None and math.prod(shape) == math.prod(inner[0]) else None
            source = generator_method(func.attr)
        if source is None:
            return None
        keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
        if source.dims_as_arguments:
            shape = self.ints(call.args, scope)
        elif source.keyword in keywords:
            shape = self.ints(keywords[source.keyword], scope)
        elif source.position is not None and source.position < len(call.args):
            shape = self.ints(call.args[source.position], scope)
        else:
            return None
        if shape is None:
            return None
        dtype = source.dtype
        if "dtype" in keywords:
            dtype = dtype_name(self.dtype_text(keywords["dtype"], scope)) or ""
        return (shape, dtype) if dtype else None

    def definition(self, expr: ast.expr, scope: Scope) -> tuple[ast.expr, Scope] | None:
        """The value a name was last assigned, or the one ``self.attr = value`` of the method's class."""
        if isinstance(expr, ast.Name):
            found = self.index.lookup(expr.id, scope)
            if found is None:
                return None
            assigned = [b for b in found[1] if b.kind is BindingKind.ASSIGN]
            statement = self.index.assignment_of(assigned[-1].node) if assigned else None
            if statement is None or len(assigned) != len(found[1]):
                return None
            return statement.value, found[0]
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            method = scope.enclosing_function()
            owner = method.parent if method is not None else None
            if owner is None or not owner.is_class:
                return None
            values = self.index.derived("self-assignments", self_assignments).get(id(owner.node), {})
            candidates = values.get(expr.attr, [])
            if len(candidates) != 1:
                return None
            value, assigning = candidates[0]
            assigning_scope = self.index.scope_of(assigning)
            return (value, assigning_scope) if assigning_scope is not None else None
        return None

    def dtype_keyword(self, expr: ast.expr, scope: Scope) -> str | None:
        """The dtype a call's ``dtype=`` names."""
        if not isinstance(expr, ast.Call):
            return None
        keyword = next((k.value for k in expr.keywords if k.arg == "dtype"), None)
        return dtype_name(self.dtype_text(keyword, scope)) if keyword is not None else None

    def uniform(self, expr: ast.expr, scope: Scope, depth: int) -> bool:
        """Whether ``expr`` is, or names, a call of a uniform constructor."""
        if isinstance(expr, ast.Call):
            return self.index.qualname(expr.func, scope) in _UNIFORM_CONSTRUCTORS
        definition = self.definition(expr, scope)
        return definition is not None and depth > 0 and self.uniform(definition[0], definition[1], depth - 1)

    def ints(self, expr: ast.expr | list[ast.expr], scope: Scope) -> tuple[int, ...] | None:
        """A shape spelled as an int, a tuple of ints, or separate int arguments."""
        items = expr if isinstance(expr, list) else [expr]
        if isinstance(expr, ast.Tuple | ast.List):
            items = list(expr.elts)
        dims: list[int] = []
        for item in items:
            value = self.ctx.interpreter.value_of(item, scope)
            if isinstance(value, Const) and isinstance(value.value, int) and not isinstance(value.value, bool):
                dims.append(value.value)
            elif isinstance(value, Seq) and len(items) == 1:
                inner = [v.value for v in value.items if isinstance(v, Const) and isinstance(v.value, int)]
                if len(inner) != len(value.items):
                    return None
                dims.extend(inner)
            else:
                return None
        return tuple(dims)

    def dtype_text(self, expr: ast.expr, scope: Scope) -> str | None:
        name = self.index.qualname(expr, scope)
        if name is not None:
            return name
        value = self.ctx.interpreter.value_of(expr, scope)
        if isinstance(value, ModuleRef):
            return value.qualname
        return value.value if isinstance(value, Const) and isinstance(value.value, str) else None


def _mib(nbytes: int) -> str:
    """A byte count in MiB, e.g. ``2.0 MiB``."""
    return f"{nbytes / (1 << 20):.1f} MiB"
