"""JX603: an array read after it was donated to a jitted call."""

from __future__ import annotations

import ast
import weakref
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import RelatedLocation, Severity, shorten
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.tracing.jit_wrappers import (
    JitIndex,
    JitWrapper,
    bind_arguments,
    calls_jit_wrapper,
    jit_index,
)
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.classes import class_model
from xlalens.analyzers.semantics.flow import FlowWalk, State
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.loops import enclosing_loops, node_in, parents
from xlalens.analyzers.semantics.names import BindingKind, ModuleIndex, Scope
from xlalens.analyzers.semantics.values import UNKNOWN, Array, Dict, Instance, Seq, Value

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
    if isinstance(value, Instance) and not value.traced:
        # A train state's arrays go with it, whatever else it holds (a step function, a config).
        return any(_holds_device_arrays(field) for _, field in value.fields or ())
    return False


_TREE_MAPS = frozenset({"jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map"})
"""Functions that call their first argument on every leaf of the trees they are given."""

_STATIC_FIELDS = frozenset({"apply_fn", "tx"})
"""Fields of a Flax train state that are not pytree leaves (the model's apply function, the
optimizer): the object keeps them when its arrays are donated, and reading them works."""

_TRAIN_STATE_CREATE = frozenset({"flax.training.train_state.TrainState.create"})
"""Constructors whose result is a pytree of device arrays that a donating step deletes."""

_CONTAINER_CALLS = frozenset({"builtins.dict", "builtins.list", "builtins.tuple", "functools.partial"})
"""Calls whose result holds their arguments themselves (no copy): donating one deletes it in the result too."""
_APPENDS = frozenset({"append", "extend", "insert", "add", "setdefault", "update"})
"""Methods that store their arguments in the container they are called on."""


class _Donations(FlowWalk):
    """Finds reads of names that were donated and not rebound since.

    State keys: ``("donated", name)`` -> the donating call (joined as a union: donated on some
    path); ``("device", name)`` -> True when the name holds the result of a jitted call (joined as
    an intersection: on every path); ``("holds", name)`` -> the names whose arrays the name's value
    holds without a copy (an alias ``best = params``, a tuple, list or dict built from them, an
    object constructed with them, ``functools.partial`` binding them, ``history.append(params)``;
    joined as a union). Donating a name deletes the arrays of everything that holds it and of
    everything it holds.
    """

    def __init__(self, index: ModuleIndex, scope: Scope, interpreter: Interpreter, jits: JitIndex) -> None:
        self.index = index
        self.scope = scope
        self.interpreter = interpreter
        self.jits = jits
        self.reads: dict[int, list[tuple[ast.Name, str]]] = {}
        self._seen: set[int] = set()

    def join(self, a: State, b: State) -> State:
        merged = {k: v for k, v in a.items() if k[0] in ("donated", "holds", "via") or k in b}  # type: ignore[index]
        for key, value in b.items():
            if key[0] == "holds" and key in merged:  # type: ignore[index]
                merged[key] = merged[key] | value  # type: ignore[operator]
            elif key[0] in ("donated", "holds", "via"):  # type: ignore[index]
                merged.setdefault(key, value)
        return merged

    def on_store(self, name: str, value: ast.expr | None, state: State) -> None:
        state.pop(("donated", name), None)
        state.pop(("via", name), None)
        # A new object under the name: its attributes (`state.params`) are new too.
        for key in [k for k in state if k[0] in ("donated", "via") and str(k[1]).startswith(f"{name}.")]:  # type: ignore[index]
            del state[key]
        # Whoever held the old value still holds it, but it can no longer be donated through `name`.
        for key, held in list(state.items()):
            if key[0] == "holds" and name in held:  # type: ignore[index,operator]
                state[key] = held - {name}  # type: ignore[operator]
        held = self.held_names(value) if value is not None else frozenset()
        if held:
            state[("holds", name)] = held
        else:
            state.pop(("holds", name), None)
        from_jit = isinstance(value, ast.Call) and self.jits.of_call(value, self.scope) is not None
        if from_jit or (isinstance(value, ast.Call) and self.builds_train_state(value)):
            state[("device", name)] = True
        else:
            state.pop(("device", name), None)

    def on_call(self, call: ast.Call, state: State) -> None:
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in _APPENDS:
            held = frozenset().union(*(self.held_names(a) for a in [*call.args, *(k.value for k in call.keywords)]))
            if held:
                key = ("holds", func.value.id)
                state[key] = state.get(key, frozenset()) | held  # type: ignore[operator]
            return
        wrapper = self.jits.of_call(call, self.scope)
        if wrapper is None or (not wrapper.donated and not wrapper.donated_positions):
            return
        for argument in bind_arguments(wrapper, call):
            expr = argument.expr
            attribute = _attribute_path(expr)
            if argument.donated and attribute is not None:
                # `apply(self.params, ...)`: the attribute keeps naming the donated arrays until reassigned.
                if self.attribute_holds_device_arrays(expr):  # type: ignore[arg-type]
                    state[("donated", attribute)] = call
                    state[("via", attribute)] = attribute
                continue
            if not argument.donated or not isinstance(expr, ast.Name):
                continue
            device = ("device", expr.id) in state or _holds_device_arrays(self.interpreter.value_of(expr, self.scope))
            if not device:
                continue
            sharing = self.sharing_buffers(expr.id, state)
            # Another argument of the same call that shares the donated buffers gets a deleted array.
            for other in bind_arguments(wrapper, call):
                if other.expr is not expr and isinstance(other.expr, ast.Name) and other.expr.id in sharing:
                    self.reads.setdefault(id(call), []).append((other.expr, expr.id))
            for name in sharing:
                state[("donated", name)] = call
                state[("via", name)] = expr.id

    def builds_train_state(self, call: ast.Call) -> bool:
        """Whether ``call`` is ``TrainState.create(...)`` of Flax's train state (or of a class of the module
        derived from it): a pytree of the parameters' and optimizer state's device arrays."""
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr != "create":
            return False
        if self.index.qualname(func, self.scope) in _TRAIN_STATE_CREATE:
            return True
        found = self.index.lookup(func.value.id, self.scope) if isinstance(func.value, ast.Name) else None
        if found is None or len(found[1]) != 1 or found[1][0].kind is not BindingKind.CLASS:
            return False
        owner = found[1][0].node
        assert isinstance(owner, ast.ClassDef)
        return any(f"{self.index.qualname(base, self.scope)}.create" in _TRAIN_STATE_CREATE for base in owner.bases)

    def attribute_holds_device_arrays(self, expr: ast.Attribute) -> bool:
        """Whether ``obj.attr`` holds JAX arrays: its value here, or else what the methods of the object's
        class assign to it (every assignment whose value is known holds them, and one at least is known)."""
        if _holds_device_arrays(self.interpreter.value_of(expr, self.scope)):
            return True
        owner = self.interpreter.value_of(expr.value, self.scope)
        if not isinstance(owner, Instance):
            return False
        known = []
        for value, method in class_model(self.index, owner.node).attribute_assignments.get(expr.attr, []):
            method_scope = self.index.scope_of(method)
            found = self.interpreter.value_of(value, method_scope) if method_scope is not None else UNKNOWN
            if found is not UNKNOWN:
                known.append(_holds_device_arrays(found))
        return bool(known) and all(known)

    def expr(self, node: ast.expr, state: State) -> None:
        path = _attribute_path(node)
        if path is not None and isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
            call = state.get(("donated", path))
            if isinstance(call, ast.Call) and id(node) not in self._seen and not self.metadata_only(node):
                self._seen.add(id(node))
                read = ast.copy_location(ast.Name(id=path, ctx=ast.Load()), node)
                self.reads.setdefault(id(call), []).append((read, path))
        super().expr(node, state)

    def bind(self, target: ast.expr, value: ast.expr | None, state: State) -> None:
        path = _attribute_path(target)
        if path is not None:
            state.pop(("donated", path), None)
            state.pop(("via", path), None)
        pairs = (
            isinstance(target, ast.Tuple | ast.List)
            and isinstance(value, ast.Tuple | ast.List)
            and len(target.elts) == len(value.elts)
            and not any(isinstance(e, ast.Starred) for e in [*target.elts, *value.elts])
        )
        if pairs:
            assert isinstance(target, ast.Tuple | ast.List) and isinstance(value, ast.Tuple | ast.List)
            for element, part in zip(target.elts, value.elts, strict=True):
                self.bind(element, part, state)
            return
        super().bind(target, value, state)
        if isinstance(target, ast.Tuple | ast.List) and isinstance(value, ast.Name):
            # `params, velocity = carry`: the tuple still holds what the names now name.
            unpacked = frozenset(e.id for e in target.elts if isinstance(e, ast.Name))
            key = ("holds", value.id)
            state[key] = state.get(key, frozenset()) | unpacked  # type: ignore[operator]

    @staticmethod
    def sharing_buffers(name: str, state: State) -> set[str]:
        """``name``, the names its value holds (transitively), and the names whose values hold any of
        those (transitively): not the other names a holder holds (`carry = (params, velocity)` does not
        make `velocity` share `params`'s arrays)."""
        holds = {k[1]: v for k, v in state.items() if k[0] == "holds"}  # type: ignore[index]
        inside = {name}
        changed = True
        while changed:
            changed = False
            for holder, held in holds.items():
                if holder in inside and not held <= inside:  # type: ignore[operator]
                    inside |= held  # type: ignore[arg-type]
                    changed = True
        found = set(inside)
        changed = True
        while changed:
            changed = False
            for holder, held in holds.items():
                if holder not in found and held & found:  # type: ignore[operator]
                    found.add(holder)
                    changed = True
        return found

    def held_names(self, value: ast.expr) -> frozenset[str]:
        """The names whose values ``value`` holds as they are (no copy): ``a``, ``(a, b)``, ``[a]``,
        ``{"p": a}``, ``TrainState(a, b)`` of a class of the module, ``functools.partial(f, a)``."""
        if isinstance(value, ast.Name):
            return frozenset({value.id})
        if isinstance(value, ast.Tuple | ast.List | ast.Set):
            return frozenset().union(*(self.held_names(e) for e in value.elts))
        if isinstance(value, ast.Starred):
            return self.held_names(value.value)
        if isinstance(value, ast.Dict):
            return frozenset().union(*(self.held_names(v) for v in value.values))
        if isinstance(value, ast.Call) and self.builds_container(value.func):
            parts = [*value.args, *(k.value for k in value.keywords)]
            return frozenset().union(*(self.held_names(p) for p in parts))
        return frozenset()

    def builds_container(self, func: ast.expr) -> bool:
        """A call of a class of the module (a train state, a named tuple) or of ``dict``/``tuple``/``partial``."""
        if self.index.qualname(func, self.scope) in _CONTAINER_CALLS:
            return True
        if not isinstance(func, ast.Name):
            return False
        found = self.index.lookup(func.id, self.scope)
        return found is not None and all(b.kind is BindingKind.CLASS for b in found[1])

    def on_load(self, name: ast.Name, state: State) -> None:
        call = state.get(("donated", name.id))
        if not isinstance(call, ast.Call) or id(name) in self._seen or self.metadata_only(name):
            return
        self._seen.add(id(name))
        via = state.get(("via", name.id))
        self.reads.setdefault(id(call), []).append((name, via if isinstance(via, str) else name.id))

    def maps_metadata(self, call: ast.Call) -> bool:
        """Whether ``call`` maps a lambda that only measures its leaves over the trees it is given."""
        if self.index.qualname(call.func, self.scope) not in _TREE_MAPS or not call.args:
            return False
        function = call.args[0]
        return isinstance(function, ast.Lambda) and _reads_only_metadata(function)

    def metadata_only(self, name: ast.Name | ast.Attribute) -> bool:
        """``x.shape``, ``x.dtype``, ``len(x)``…: reads that work on a deleted array."""
        parent_of = parents(self.index, self.scope)
        parent = parent_of.get(id(name))
        if isinstance(parent, ast.Attribute) and parent.value is name:
            if parent.attr in _METADATA or parent.attr in _STATIC_FIELDS:
                return True
            # `jax.tree.map(lambda p: p.shape, state.params)`: the subtree is only measured.
            outer = parent_of.get(id(parent))
            return isinstance(outer, ast.Call) and parent in outer.args[1:] and self.maps_metadata(outer)
        if isinstance(parent, ast.Compare) and all(isinstance(op, ast.Is | ast.IsNot) for op in parent.ops):
            return True
        if not (isinstance(parent, ast.Call) and name in parent.args):
            return False
        if name in parent.args[1:] and self.maps_metadata(parent):
            return True
        func = parent.func
        if self.index.qualname(func, self.scope) in _SHAPE_ONLY_CALLS:
            return True
        if isinstance(func, ast.Attribute) and func.attr in _SHAPE_ONLY_METHODS:
            return True
        # jax.make_jaxpr(f)(x) traces f on x's type.
        return isinstance(func, ast.Call) and self.index.qualname(func.func, self.scope) == "jax.make_jaxpr"


def _reads_only_metadata(function: ast.Lambda) -> bool:
    """Whether a lambda uses its parameters only through ``.shape``, ``.dtype`` and the like."""
    params = {arg.arg for arg in function.args.args}
    uses = [n for n in ast.walk(function.body) if isinstance(n, ast.Name) and n.id in params]
    measured = {
        id(n.value)
        for n in ast.walk(function.body)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.attr in _METADATA
    }
    return bool(uses) and all(id(use) in measured for use in uses)


_HELD_TWICE_DEPTH = 3
"""How many names and calls are followed back to the container that holds a buffer twice."""


def _held_twice(index: ModuleIndex, expr: ast.expr, scope: Scope, depth: int = 0) -> tuple[str, ast.expr] | None:
    """A local array name that the container ``expr`` evaluates to holds twice, with the display or
    constructor call that holds it (``AdamState(mu=zeros, nu=zeros)``), followed through the names'
    last assignments before ``expr`` and through module functions that return one expression."""
    if depth > _HELD_TWICE_DEPTH:
        return None
    if isinstance(expr, ast.Name):
        found = _assigned_before(index, expr, scope)
        return _held_twice(index, found[0], found[1], depth + 1) if found is not None else None
    if isinstance(expr, ast.Tuple | ast.List):
        elements = list(expr.elts)
    elif isinstance(expr, ast.Dict):
        elements = list(expr.values)
    elif isinstance(expr, ast.Call):
        callee = index.local_function(expr.func.id, scope) if isinstance(expr.func, ast.Name) else None
        if isinstance(callee, ast.FunctionDef) and not callee.decorator_list:
            returns = [s for s in ast.walk(callee) if isinstance(s, ast.Return)]
            inner = index.scope_of(callee)
            if len(returns) == 1 and returns[0].value is not None and inner is not None:
                return _held_twice(index, returns[0].value, inner, depth + 1)
            return None
        if not _constructs_class(index, expr, scope):
            return None
        elements = [*expr.args, *(k.value for k in expr.keywords)]
    else:
        return None
    names = [e.id for e in elements if isinstance(e, ast.Name)]
    repeated = next((name for name in names if names.count(name) > 1), None)
    if repeated is None or not _array_built_here(index, repeated, scope):
        return None
    return repeated, expr


def _assigned_before(index: ModuleIndex, name: ast.Name, scope: Scope) -> tuple[ast.expr, Scope] | None:
    """The value of the last binding of ``name`` above it in its scope, when that is a plain ``name = value``
    (a state rebound after the call, `params, state = step(params, state)`, is not the one it receives)."""
    found = index.lookup(name.id, scope)
    if found is None:
        return None
    owner, bindings = found
    earlier = [b for b in bindings if b.node is not None and b.node.lineno < name.lineno]  # type: ignore[attr-defined]
    if owner is not scope:
        earlier = list(bindings)
    if not earlier:
        return None
    last = max(earlier, key=lambda b: b.node.lineno)  # type: ignore[attr-defined,union-attr]
    statement = index.assignment_of(last.node) if last.kind is BindingKind.ASSIGN else None
    return (statement.value, owner) if statement is not None else None


def _constructs_class(index: ModuleIndex, call: ast.Call, scope: Scope) -> bool:
    """Whether ``call`` builds an instance of a class of the module (a NamedTuple or dataclass state)."""
    if not isinstance(call.func, ast.Name):
        return False
    found = index.lookup(call.func.id, scope)
    return found is not None and len(found[1]) == 1 and found[1][0].kind is BindingKind.CLASS


def _array_built_here(index: ModuleIndex, name: str, scope: Scope) -> bool:
    """Whether ``name`` is bound once to a ``jax.numpy`` array constructor (``jnp.zeros_like(params)``)."""
    found = index.single_assignment(name, scope)
    if found is None or not isinstance(found[0].value, ast.Call):
        return False
    qualname = index.qualname(found[0].value.func, found[1]) or ""
    return qualname.startswith("jax.numpy.")


def _attribute_path(expr: ast.expr) -> str | None:
    """``self.params`` for an attribute of a plain name, else None."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return f"{expr.value.id}.{expr.attr}"
    return None


_FOUND: weakref.WeakKeyDictionary[ModuleIndex, dict[int, dict[int, list[ast.Name]]]] = weakref.WeakKeyDictionary()


def reads_after_donation(ctx: CheckContext) -> dict[int, list[tuple[ast.Name, str]]]:
    """For the current function (or module body): ``id(donating call)`` -> the reads of what it deleted,
    each with the name that was donated (the read name itself, or the one it shares buffers with)."""
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
    array on every iteration without assigning the result back. Names that hold the same arrays
    count too: an alias (`best = params`), a tuple, list or dict built from the array, an object
    constructed with it, `functools.partial` binding it, a list it was appended to, and the names a
    donated tuple was unpacked into — read after the donation, or passed to the very call that
    donates them. An attribute donated as it is (`apply_grads(self.params, grads)`) counts until
    it is assigned again (`self.params = ...`). Reading only metadata (`x.shape`, `x.dtype`,
    `len(x)`, `jax.tree.map(lambda p: p.shape, tree)`) is not reported: that still works. A Flax
    `TrainState.create(...)` holds device arrays (its `apply_fn` and `tx` are not leaves). Also a
    donated pytree that holds one array twice (`AdamState(mu=zeros, nu=zeros)`): JAX refuses to
    donate the same buffer twice.

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

    def check_buffer_held_twice(self, node: ast.Call, wrapper: JitWrapper, ctx: CheckContext) -> None:
        """A donated argument whose pytree holds one array twice: JAX refuses to donate a buffer twice."""
        for argument in bind_arguments(wrapper, node):
            if not argument.donated:
                continue
            found = _held_twice(ctx.index, argument.expr, ctx.scope)
            if found is None:
                continue
            name, holder = found
            shown = shorten(ctx.segment(holder), 80)
            ctx.report(
                argument.expr,
                f"`{snippet(ctx, argument.expr)}` holds `{name}` twice, and `{snippet(ctx, node.func)}` donates it",
                detail=f"`{ctx.segment(argument.expr)}` is built as `{shown}`, which holds the array `{name}` twice; "
                f"`{' '.join(ctx.segment(node.func).split())}` donates it (`{wrapper.donate_keyword}`), and JAX "
                "refuses to donate one buffer twice (RuntimeError: INVALID_ARGUMENT: Attempt to donate the same "
                f"buffer twice); give each leaf its own array (`jnp.zeros_like` once per leaf).",
            )
            return

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        # Under tracing, arguments are tracers and donation only applies to the outermost jit.
        if ctx.traced_function is not None:
            return
        wrapper = jit_index(ctx.index).of_call(node, ctx.scope)
        if wrapper is None or (not wrapper.donated and not wrapper.donated_positions):
            return
        self.check_buffer_held_twice(node, wrapper, ctx)
        reads = reads_after_donation(ctx).get(id(node), [])
        label = " ".join(ctx.segment(node.func).split())
        short = snippet(ctx, node.func)
        reported: set[tuple[int, str]] = set()
        for read, donated in reads:
            # `state.apply_fn(state.params, x)` reads the donated name twice in one line: one finding.
            if (read.lineno, read.id) in reported:
                continue
            reported.add((read.lineno, read.id))
            donation = ctx.source.node_range(node)
            if donated != read.id and node_in(read, [node]):
                headline = f"`{read.id}` aliases `{donated}`, which `{short}` donates in this very call"
                detail = (
                    f"`{read.id}` holds the same arrays as `{donated}`, which `{label}` donates "
                    f"(`{wrapper.donate_keyword}`) in this very call: JAX refuses to run it (RuntimeError: "
                    "INVALID_ARGUMENT: Attempt to use a buffer that was previously donated); pass a copy "
                    f"(`jnp.copy`, `jax.tree.map(jnp.copy, {read.id})`) or do not donate `{donated}`"
                )
            elif donated != read.id:
                headline = (
                    f"`{read.id}` shares arrays with `{donated}`, donated to `{short}` at line {donation.start.line}"
                )
                detail = (
                    f"`{read.id}` holds the same arrays as `{donated}` (an alias, or a container or object built "
                    f"from it), and `{donated}` was donated to `{label}` (`{wrapper.donate_keyword}`) at line "
                    f"{donation.start.line}: its arrays may have been deleted, so reading `{read.id}` raises "
                    "RuntimeError: Array has been deleted; keep a copy (`jnp.copy`) instead of the array itself"
                )
            elif node_in(read, [node]):
                loops = enclosing_loops(node, ctx.index, ctx.scope)
                where = f"`{loops[0].header(ctx)}`" if loops else "its loop"
                headline = f"`{read.id}` is donated to `{short}` every iteration but never reassigned"
                detail = (
                    f"`{read.id}` is donated to `{label}` (`{wrapper.donate_keyword}`) on every iteration of {where} "
                    "but never reassigned, so the next iteration passes a deleted array and fails (ValueError: "
                    "INVALID_ARGUMENT: … Buffer has been deleted or donated); assign the result back "
                    f"(`{read.id} = {label}(...)`)"
                )
            else:
                headline = f"`{read.id}` is read after it was donated to `{short}` at line {donation.start.line}"
                detail = (
                    f"`{read.id}` was donated to `{label}` (`{wrapper.donate_keyword}`) at line {donation.start.line} "
                    "and may have been deleted (JAX reuses a donated buffer whenever an output has its shape and "
                    "dtype): reading it raises RuntimeError: Array has been deleted (or, through an operation that "
                    "is already compiled, ValueError: INVALID_ARGUMENT: … Buffer has been deleted or donated); use "
                    f"the result, or do not donate `{read.id}`"
                )
            ctx.report(
                read,
                headline,
                detail=f"{detail}.",
                related=(RelatedLocation(ctx.path, donation, f"`{donated}` is donated here"),),
            )
