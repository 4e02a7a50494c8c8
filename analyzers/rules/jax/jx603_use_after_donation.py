"""JX603: an array read after it was donated to a jitted call."""

from __future__ import annotations

import ast
import weakref
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import RelatedLocation, Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.tracing.jit_wrappers import JitIndex, bind_arguments, calls_jit_wrapper, jit_index
from xlalens.analyzers.semantics.flow import FlowWalk, State
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.loops import enclosing_loops, node_in, parents
from xlalens.analyzers.semantics.names import ModuleIndex, Scope
from xlalens.analyzers.semantics.values import Array, Dict, Seq, Value

# What still works on a deleted array (checked with JAX 0.10.2): its metadata lives in the Python
# object, not the buffer. `x.T`, `x.device` and printing read the buffer and raise.
_METADATA = frozenset(
    {
        "shape",
        "dtype",
        "ndim",
        "size",
        "sharding",
        "is_deleted",
        "delete",
        "aval",
        "weak_type",
        "nbytes",
        "itemsize",
        "committed",
    }
)
_SHAPE_ONLY_CALLS = frozenset(
    {"builtins.len", "builtins.isinstance", "builtins.id", "builtins.type", "jax.typeof", "jax.eval_shape"}
    | {"jax.ShapeDtypeStruct.like"}
)
"""Calls that look at an array's type and shape only."""
_SHAPE_ONLY_METHODS = frozenset(
    {"lower", "trace", "eval_shape", "assertDeleted", "assertNotDeleted"}
    | {"assertIs", "assertIsNot", "assertIsInstance", "assertNotIsInstance"}
)
"""``jitted.lower(x)``/``.trace(x)`` stage without running; a test's ``assertDeleted(x)`` asks ``is_deleted``,
and ``assertIs``/``assertIsInstance`` look at the object, not its buffer."""


def _holds_device_arrays(value: Value) -> bool:
    """A JAX array outside tracing, or a container of them (the values donation can delete)."""
    if isinstance(value, Array):
        return value.library == "jax" and not value.traced
    if isinstance(value, Seq | Dict):
        items = value.items if isinstance(value, Seq) else value.values
        return bool(items) and all(_holds_device_arrays(item) for item in items)
    return False


class _Donations(FlowWalk):
    """Finds reads of names that were donated and not rebound since.

    State keys: ``("donated", name)`` -> the donating call (joined as a union: donated on some
    path); ``("device", name)`` -> True when the name holds the result of a jitted call (joined as
    an intersection: on every path).
    """

    def __init__(self, index: ModuleIndex, scope: Scope, interpreter: Interpreter, jits: JitIndex) -> None:
        self.index = index
        self.scope = scope
        self.interpreter = interpreter
        self.jits = jits
        self.reads: dict[int, list[ast.Name]] = {}
        self._seen: set[int] = set()

    def join(self, a: State, b: State) -> State:
        merged = {k: v for k, v in a.items() if k[0] == "donated" or k in b}  # type: ignore[index]
        for key, value in b.items():
            if key[0] == "donated":  # type: ignore[index]
                merged.setdefault(key, value)
        return merged

    def on_store(self, name: str, value: ast.expr | None, state: State) -> None:
        state.pop(("donated", name), None)
        from_jit = isinstance(value, ast.Call) and self.jits.of_call(value, self.scope) is not None
        if from_jit:
            state[("device", name)] = True
        else:
            state.pop(("device", name), None)

    def on_call(self, call: ast.Call, state: State) -> None:
        wrapper = self.jits.of_call(call, self.scope)
        if wrapper is None or (not wrapper.donated and not wrapper.donated_positions):
            return
        for argument in bind_arguments(wrapper, call):
            expr = argument.expr
            if not argument.donated or not isinstance(expr, ast.Name):
                continue
            device = ("device", expr.id) in state or _holds_device_arrays(self.interpreter.value_of(expr, self.scope))
            if device:
                state[("donated", expr.id)] = call

    def on_load(self, name: ast.Name, state: State) -> None:
        call = state.get(("donated", name.id))
        if not isinstance(call, ast.Call) or id(name) in self._seen or self.metadata_only(name):
            return
        self._seen.add(id(name))
        self.reads.setdefault(id(call), []).append(name)

    def metadata_only(self, name: ast.Name) -> bool:
        """``x.shape``, ``x.dtype``, ``len(x)``…: reads that work on a deleted array."""
        parent = parents(self.index, self.scope).get(id(name))
        if isinstance(parent, ast.Attribute) and parent.value is name:
            return parent.attr in _METADATA
        if isinstance(parent, ast.Compare) and all(isinstance(op, ast.Is | ast.IsNot) for op in parent.ops):
            return True
        if not (isinstance(parent, ast.Call) and name in parent.args):
            return False
        func = parent.func
        if self.index.qualname(func, self.scope) in _SHAPE_ONLY_CALLS:
            return True
        if isinstance(func, ast.Attribute) and func.attr in _SHAPE_ONLY_METHODS:
            return True
        # jax.make_jaxpr(f)(x) traces f on x's type.
        return isinstance(func, ast.Call) and self.index.qualname(func.func, self.scope) == "jax.make_jaxpr"


_FOUND: weakref.WeakKeyDictionary[ModuleIndex, dict[int, dict[int, list[ast.Name]]]] = weakref.WeakKeyDictionary()


def reads_after_donation(ctx: CheckContext) -> dict[int, list[ast.Name]]:
    """For the current function (or module body): ``id(donating call)`` -> the reads of what it deleted."""
    owner = ctx.scope.enclosing_function() or ctx.index.module_scope
    per_module = _FOUND.setdefault(ctx.index, {})
    found = per_module.get(id(owner.node))
    if found is None:
        walk = _Donations(ctx.index, owner, ctx.interpreter, jit_index(ctx.index))
        node = owner.node
        if isinstance(node, ast.Lambda):
            walk.run([ast.Expr(node.body)], {})
        else:
            walk.run(node.body, {})  # type: ignore[attr-defined]
        found = per_module[id(owner.node)] = walk.reads
    return found


@register_rule
class UseAfterDonation(Rule):
    """## What it does
    Finds a JAX array passed in a `donate_argnums`/`donate_argnames` position of a jitted function
    and read afterwards without being reassigned first — including a loop that donates the same
    array on every iteration without assigning the result back. Reading only metadata (`x.shape`,
    `x.dtype`, `len(x)`) is not reported: that still works.

    ## Why is this bad?
    Donating an argument lets XLA reuse its memory for an output, and JAX deletes the array when it
    does. A later read raises `RuntimeError: Array has been deleted with shape=float32[3].`, or,
    when it goes through an operation that is already compiled (passing the array to a jitted
    function again, a method like `.sum()` used before), `ValueError: INVALID_ARGUMENT: Invalid
    buffer passed to Execute() … Buffer has been deleted or donated.` JAX reuses a donated buffer
    when an output has the same shape and dtype, on CPU as well as on GPU and TPU (JAX 0.10); when
    no output fits it warns "Some donated buffers were not usable" and keeps the array, so the bug
    can hide until the function changes.

    ## Example
    ```python
    import functools

    import jax
    import jax.numpy as jnp

    @functools.partial(jax.jit, donate_argnums=0)
    def update(params, grads):
        return params - 0.1 * grads

    params = jnp.ones(4)
    new_params = update(params, jnp.ones(4))
    print(params)
    ```

    Use instead:
    ```python
    import functools

    import jax
    import jax.numpy as jnp

    @functools.partial(jax.jit, donate_argnums=0)
    def update(params, grads):
        return params - 0.1 * grads

    params = jnp.ones(4)
    params = update(params, jnp.ones(4))
    print(params)
    ```

    ## References
    - JAX docs: "Buffer donation" (FAQ)
    - JAX docs: `jax.jit`, parameter `donate_argnums`
    """

    code = "JX603"
    raises = ("RuntimeError", "ValueError")
    message = "array read after it was donated"
    explainer = "async-dispatch-and-donation#use-after-donation"
    severity = Severity.ERROR
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_filter = staticmethod(calls_jit_wrapper)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        # Under tracing, arguments are tracers and donation only applies to the outermost jit.
        if ctx.traced_function is not None:
            return
        wrapper = jit_index(ctx.index).of_call(node, ctx.scope)
        if wrapper is None or (not wrapper.donated and not wrapper.donated_positions):
            return
        reads = reads_after_donation(ctx).get(id(node), [])
        label = " ".join(ctx.segment(node.func).split())
        for read in reads:
            donation = ctx.source.node_range(node)
            if node_in(read, [node]):
                loops = enclosing_loops(node, ctx.index, ctx.scope)
                where = f"`{loops[0].header(ctx)}`" if loops else "its loop"
                message = (
                    f"`{read.id}` is donated to `{label}` (`{wrapper.donate_keyword}`) on every iteration of {where} "
                    "but never reassigned, so the next iteration passes a deleted array and fails (ValueError: "
                    "INVALID_ARGUMENT: … Buffer has been deleted or donated); assign the result back "
                    f"(`{read.id} = {label}(...)`)"
                )
            else:
                message = (
                    f"`{read.id}` was donated to `{label}` (`{wrapper.donate_keyword}`) at line {donation.start.line} "
                    "and may have been deleted (JAX reuses a donated buffer whenever an output has its shape and "
                    "dtype): reading it raises RuntimeError: Array has been deleted (or, through an operation that "
                    "is already compiled, ValueError: INVALID_ARGUMENT: … Buffer has been deleted or donated); use "
                    f"the result, or do not donate `{read.id}`"
                )
            ctx.report(
                read,
                message,
                related=(RelatedLocation(ctx.path, donation, f"`{read.id}` is donated here"),),
            )
