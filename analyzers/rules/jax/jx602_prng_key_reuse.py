"""JX602: the same PRNG key consumed twice."""

from __future__ import annotations

import ast
import weakref
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import (
    Applicability,
    Edit,
    Fix,
    Range,
    RelatedLocation,
    Severity,
    first_fitting,
)
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.randomness import (
    LAYER_KEY_PREFIXES,
    SAMPLERS,
    SPLITTERS,
    consumer_kind,
    library_key_argument,
)
from xlalens.analyzers.models.tracing.jit_wrappers import jit_index
from xlalens.analyzers.models.tracing.key_flow import (
    consumed_by_call,
    fixed_key,
    key_summaries,
    repeated_functions,
    returned_key,
    same_seed_in_one_run,
)
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.calls import GatedCallFilter, may_call_transformed
from xlalens.analyzers.semantics.flow import FlowWalk, State
from xlalens.analyzers.semantics.interpreter import UNKNOWN_OPTION
from xlalens.analyzers.semantics.loops import enclosing_loops, parents
from xlalens.analyzers.semantics.names import ModuleIndex, Scope, positional_params
from xlalens.analyzers.semantics.values import FunctionRef, Transformed


def key_argument(call: ast.Call) -> ast.expr | None:
    """The key a ``jax.random`` call is given: its first argument or ``key=``."""
    if call.args:
        return call.args[0] if not isinstance(call.args[0], ast.Starred) else None
    return next((k.value for k in call.keywords if k.arg == "key"), None)


def key_name(expr: ast.expr | None) -> str | None:
    """How the walk names a key: a variable (``key``) or an attribute of one (``self.key``)."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return f"{expr.value.id}.{expr.attr}"
    return None


Uses = tuple[tuple[str, ast.Call], ...]
"""For one key: each way it was used up (``sample``, ``split``), with the latest call that did."""


def _fresh_subkey(ctx: CheckContext, key: str) -> str:
    """A name for the split-off key that the module does not use yet (never the key's own name)."""
    taken = {*jit_index(ctx.index).names(), key}
    subkey, number = "subkey", 2
    while subkey in taken:
        subkey, number = f"subkey{number}", number + 1
    return subkey


class _KeyUses(FlowWalk):
    """Finds each call that uses up a key the same way an earlier call already did (two draws, or two
    splits; through a ``jax.random`` call or a helper of the module that uses its key argument)."""

    def __init__(self, index: ModuleIndex, scope: Scope) -> None:
        self.index = index
        self.scope = scope
        self.reused: dict[int, Reuse] = {}

    def join(self, a: State, b: State) -> State:
        merged = dict(a)
        for name, uses in b.items():
            mine = merged.get(name, ())
            kinds = {kind for kind, _ in mine}  # type: ignore[union-attr]
            merged[name] = (*mine, *(u for u in uses if u[0] not in kinds))  # type: ignore[union-attr,misc]
        return merged

    def on_call(self, call: ast.Call, state: State) -> None:
        for expr, kinds in consumed_by_call(self.index, call):
            name = key_name(expr)
            if name is None:
                continue
            uses: Uses = state.get(name, ())  # type: ignore[assignment]
            # A use of the same kind (two draws, two splits) repeats the bits; any earlier use is
            # still a reuse that JAX's key-reuse checker rejects.
            same = next((c for k, c in uses if k in kinds), None)
            earlier = same or next((c for _, c in uses), None)
            if earlier is not None:
                self.reused.setdefault(id(call), (earlier, name, same is not None))
            state[name] = (*(u for u in uses if u[0] not in kinds), *((kind, call) for kind in sorted(kinds)))

    def on_store(self, name: str, value: ast.expr | None, state: State) -> None:
        state.pop(name, None)
        for attribute in [k for k in state if isinstance(k, str) and k.startswith(f"{name}.")]:
            state.pop(attribute, None)

    def bind(self, target: ast.expr, value: ast.expr | None, state: State) -> None:
        if isinstance(value, ast.Call):
            # `images, key, shifts = random_crop(key, images)`: a helper that hands back the key it
            # used leaves the name bound to the same, used, key.
            targets = list(target.elts) if isinstance(target, ast.Tuple | ast.List) else [target]
            handed_back = {
                id(t): returned_key(self.index, value, i if isinstance(target, ast.Tuple | ast.List) else -1)
                for i, t in enumerate(targets)
            }
            if any(handed_back.values()):
                for t in targets:
                    source = key_name(handed_back.get(id(t)))
                    used = state.get(source) if source is not None else None
                    self.bind(t, None, state)
                    bound = key_name(t)
                    if bound is not None and used:
                        state[bound] = used
                return
        super().bind(target, value, state)
        stored = key_name(target) if isinstance(target, ast.Attribute) else None
        if stored is not None:
            # `self.key, sub = jax.random.split(self.key)` stores a fresh key in the attribute.
            self.on_store(stored, value, state)


def _function_name(node: ast.AST) -> str:
    return node.name if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else "lambda"


Reuse = tuple[ast.Call, str, bool]
"""The earlier call that used a key, the key's name, and whether both calls used it the same way."""

_FOUND: weakref.WeakKeyDictionary[ModuleIndex, dict[int, dict[int, Reuse]]] = weakref.WeakKeyDictionary()


def reused_keys(ctx: CheckContext) -> dict[int, Reuse]:
    """For the current function (or module body): ``id(call)`` -> the earlier call that used the same key,
    the key's name, and whether both used it the same way (two draws or two splits: the same bits)."""
    owner = ctx.scope.enclosing_function() or ctx.index.module_scope
    per_module = _FOUND.setdefault(ctx.index, {})
    found = per_module.get(id(owner.node))
    if found is None:
        walk = _KeyUses(ctx.index, owner)
        node = owner.node
        if isinstance(node, ast.Lambda):
            walk.run([ast.Expr(node.body)], {})
        else:
            walk.run(node.body, {})  # type: ignore[attr-defined]
        found = per_module[id(owner.node)] = walk.reused
    return found


_CONSUMERS = frozenset(f"jax.random.{name}" for name in SAMPLERS | SPLITTERS)


_MAY_BE_VMAPPED = may_call_transformed("vmap")


def _uses_up_a_key(call: ast.Call, scope: Scope, index: ModuleIndex) -> bool:
    """A ``jax.random`` consumer, a call of one of the module's functions that uses up a key argument,
    or a vmapped call (which may hand one key to every example)."""
    qualname = index.qualname(call.func, scope)
    if qualname in _CONSUMERS or library_key_argument(qualname, call) is not None:
        return True
    summaries = key_summaries(index)
    return bool(summaries) and (bool(consumed_by_call(index, call)) or _MAY_BE_VMAPPED(call, scope, index))


def _may_name_jax_random(index: ModuleIndex) -> bool:
    """Whether a name of the module can resolve into ``jax.random`` (``jax.random.normal``, ``from jax
    import random``, ``import jax.random as jr``, ``from jax.random import split``) or into a library
    whose layers draw from a key."""
    return index.mentions("random") or index.imports("jax.random", *_LAYER_LIBRARIES)


_LAYER_LIBRARIES = tuple(prefix.split(".", 1)[0] for prefix in LAYER_KEY_PREFIXES)
"""The packages (``equinox``) a module imports before it can build a layer that draws from a key."""


_may_use_up_a_key = GatedCallFilter(_uses_up_a_key, _may_name_jax_random)


@register_rule
class PrngKeyReuse(Rule):
    """## What it does
    Finds a key used up twice: a `jax.random` sampler (`normal`, `uniform`, `bernoulli`, …),
    `split`, or an Equinox layer built with `key=` (`eqx.nn.Linear(3, 4, key=key)` draws its
    weights from it) given a key that an earlier one already used, with no `split`, `fold_in`
    or reassignment of the key in between — including a sampler inside a loop whose key is never
    changed in the loop. Keys are followed into the module's helpers (`dropout(h, key)` twice uses
    `key` twice), out of helpers that return the key they were given, and through `self.key`.
    Calls on exclusive branches (`if`/`else`) are not reported. A `jax.vmap` whose `in_axes`
    gives `None` to a key that the mapped function draws from or splits hands every example the
    same key; one per example (`jax.random.split(key, n)` mapped with 0, or `fold_in` with the
    example's index inside) is not reported.

    It also finds a draw whose key is the same on every run of a function that runs many times:
    a `lax.scan`/`fori_loop`/`while_loop`/`lax.map` body drawing from a key it closes over or
    builds from a literal seed; a jitted step function called in a loop that builds its key from a
    literal seed or reads a module-level key; a method called in a loop that draws from a
    `self` attribute only `__init__` assigns. (A plain helper that rebuilds the same data from a
    fixed seed is left alone: that is usually on purpose.) And two different helpers that each
    build a key from the same literal seed and draw from it, when one function calls both (not on
    exclusive branches): an encoder and a decoder initialised that way start with equal weights.

    ## Why is this bad?
    A JAX key is a value, not a generator with hidden state: the same key always produces the
    same bits. Two samplers on one key return identical numbers (`normal(key, (3,))` twice), or
    numbers derived from the same bits (`bernoulli(key, 0.5, s)` is exactly
    `uniform(key, s) < 0.5`), so "independent" noise, dropout masks or initialisations are not
    independent. A sampler in a loop with a fixed key draws the same values every iteration. A key
    drawn from after it was split (or split after a draw) does not repeat bits exactly, but JAX
    treats it as the same contract violation: with `jax.config.update("jax_debug_key_reuse", True)`
    the second use raises `KeyReuseError`.

    ## Example
    ```python
    import jax

    key = jax.random.key(0)
    weights = jax.random.normal(key, (3, 3))
    bias = jax.random.normal(key, (3,))
    ```

    Use instead:
    ```python
    import jax

    key = jax.random.key(0)
    key, w_key, b_key = jax.random.split(key, 3)
    weights = jax.random.normal(w_key, (3, 3))
    bias = jax.random.normal(b_key, (3,))
    ```

    ## Fix safety
    The fix inserts `key, subkey = jax.random.split(key)` before the statement and passes
    `subkey` instead. It is unsafe: the numbers drawn change (that is the point), and so does
    every later use of `key`.

    ## References
    - JAX docs: "Pseudorandom numbers"
    - JAX docs: "JAX sharp bits: random numbers"
    """

    code = "JX602"
    message = "PRNG key reused"
    explainer = "randomness#reusing-a-key"
    severity = Severity.WARNING
    raises = ("KeyReuseError",)
    fix_title = "Split the key first"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_filter = staticmethod(_may_use_up_a_key)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if self.check_broadcast_key(node, ctx):
            return
        found = reused_keys(ctx).get(id(node))
        if found is None:
            if not self.check_fixed_key(node, ctx):
                self.check_same_seed(node, ctx)
            return
        earlier, key, same_bits = found
        name = " ".join(ctx.segment(node.func).split())
        kind = consumer_kind(jit_index(ctx.index).callee(node, ctx.scope))
        uses = "draws with" if kind == "sample" else "splits" if kind == "split" else "uses up"
        direct = key_argument(node) if kind is not None else None
        # Splitting again before a second `split` would only move the reuse; so would a split placed
        # outside a comprehension that reuses the key on each of its iterations.
        in_comprehension = any(loop.generator is not None for loop in enclosing_loops(node, ctx.index, ctx.scope))
        fix = None
        if kind == "sample" and isinstance(direct, ast.Name) and not in_comprehension:
            fix = self.split_first(ctx, node, direct)
        if earlier is node:
            loops = enclosing_loops(node, ctx.index, ctx.scope)
            where = f"`{loops[0].header(ctx)}`" if loops else "the loop"
            ctx.report(
                node,
                f"`{snippet(ctx, node.func)}` {uses} key `{key}` on every iteration without splitting it",
                detail=f"`{name}` {uses} key `{key}` on every iteration of {where}, and `{key}` is not split, "
                "folded or reassigned in the loop: a key always gives the same bits, so every iteration draws "
                f"the same numbers; split a new key each iteration (`{key}, {_fresh_subkey(ctx, key)} = "
                f"jax.random.split({key})`).",
                fix=fix,
            )
            return
        # An earlier use written further down the loop body ran on the previous iteration.
        when = (
            " on the previous iteration"
            if (earlier.lineno, earlier.col_offset) > (node.lineno, node.col_offset)
            else ""
        )
        harm = (
            "a key always gives the same bits, so both calls produce the same (or dependent) numbers"
            if same_bits
            else "the streams are not guaranteed independent, and with `jax_debug_key_reuse` on JAX raises "
            "KeyReuseError (Previously-consumed key)"
        )
        ctx.report(
            node,
            f"`{snippet(ctx, node.func)}` {uses} key `{key}`, already used up at line {earlier.lineno}",
            detail=f"`{name}` {uses} key `{key}`, which `{' '.join(ctx.segment(earlier.func).split())}` already used "
            f"up at line {earlier.lineno}{when} with no split or reassignment in between: {harm}; split it first "
            f"(`{key}, {_fresh_subkey(ctx, key)} = jax.random.split({key})`).",
            fix=fix,
            related=(RelatedLocation(ctx.path, ctx.source.node_range(earlier), f"`{key}` was already used here"),),
        )

    def check_broadcast_key(self, node: ast.Call, ctx: CheckContext) -> bool:
        """``jax.vmap(f, in_axes=(0, None))(xs, key)`` where ``f`` draws from or splits that key: every
        example gets the same key, so every example gets the same numbers."""
        if not isinstance(node.func, ast.Name | ast.Attribute | ast.Call) or any(
            isinstance(a, ast.Starred) for a in node.args
        ):
            return False
        value = ctx.value(node.func)
        if not isinstance(value, Transformed) or value.transform != "jax.vmap":
            return False
        function = value.function
        if not isinstance(function, FunctionRef) or function.bound:
            return False
        summary = key_summaries(ctx.index).get(function.node)
        in_axes = value.option("in_axes", 0)
        if summary is None or in_axes == UNKNOWN_OPTION:
            return False
        axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(node.args)
        if len(axes) != len(node.args) or all(axis is None for axis in axes):
            return False
        params = positional_params(function.node)
        for position, kinds in sorted(summary.consumes.items()):
            if position >= len(axes) or axes[position] is not None or position >= len(params):
                continue
            argument, param, callee = node.args[position], params[position], _function_name(function.node)
            uses = "draws from" if "sample" in kinds else "splits"
            ctx.report(
                argument,
                f"`vmap` hands every example the same key `{snippet(ctx, argument)}`, which `{callee}` {uses}",
                detail=f"`in_axes` gives `{param}` the entry None, so every example of the batch gets the same key "
                f"`{ctx.segment(argument)}`; `{callee}` {uses} it, and a key always gives the same bits: every "
                "example gets the same numbers; pass one key per example (`jax.random.split(key, batch_size)`) "
                "and map it with in_axes 0.",
                explainer="randomness#keys-under-vmap",
            )
            return True
        return False

    def check_fixed_key(self, node: ast.Call, ctx: CheckContext) -> bool:
        """A draw in a function that runs many times from a key that is the same on every run: closed
        over by a ``lax`` loop body, or built from a literal seed, a module-level key or a ``self``
        attribute no method replaces. Whether it reported one."""
        if consumer_kind(jit_index(ctx.index).callee(node, ctx.scope)) is None:
            return False
        function = ctx.scope.enclosing_function()
        repetition = repeated_functions(ctx.index).get(id(function.node)) if function is not None else None
        key = key_argument(node)
        if function is None or repetition is None or key is None:
            return False
        # Outside a `lax` loop, a helper that rebuilds the same data from a fixed seed does so on
        # purpose; a traced step function, or an object that keeps a key it never replaces, does not.
        if repetition.primitive is None and ctx.traced_function is None and not isinstance(key, ast.Attribute):
            return False
        why = fixed_key(ctx.index, key, ctx.scope, function, traced_once=repetition.primitive is not None)
        if why is None:
            return False
        name = " ".join(ctx.segment(node.func).split())
        where = _function_name(function.node)
        if repetition.primitive is not None:
            primitive = repetition.primitive.removeprefix("jax.")
            runs = f"runs on every iteration of `{primitive}` (line {repetition.site.lineno})"
            remedy = "carry a key through the loop (or pass split keys as `xs`) and split it each iteration"
        elif repetition.caller is not None:
            runs = (
                f"is called by `{_function_name(repetition.caller)}` (line {repetition.site.lineno}), "
                "which runs many times"
            )
            remedy = "take a key argument and pass a fresh split each call"
        else:
            runs = f"is called in a loop (line {repetition.site.lineno})"
            remedy = "take a key argument and pass a fresh split each call"
        ctx.report(
            node,
            f"`{snippet(ctx, node.func)}` in `{where}` draws with the same key on every run",
            detail=f"`{name}` in `{where}` draws with {why}; `{where}` {runs}: the key is the same every time, "
            f"so every run draws the same numbers; {remedy}.",
            related=(RelatedLocation(ctx.path, ctx.source.node_range(repetition.site), "repeated here"),),
        )
        return True

    def check_same_seed(self, node: ast.Call, ctx: CheckContext) -> None:
        """A draw from a literal seed in a helper that runs after another helper drew from the same seed."""
        found = same_seed_in_one_run(ctx.index, node)
        if found is None:
            return
        function = ctx.scope.enclosing_function()
        assert function is not None  # a literal-seed draw is always in a function
        mine, other = _function_name(function.node), _function_name(found.earlier.function)
        caller = "the module" if found.caller.node is ctx.index.tree else f"`{_function_name(found.caller.node)}`"
        seed = found.earlier.seed
        ctx.report(
            node,
            first_fitting(
                f"`{snippet(ctx, node.func)}` in `{mine}` reuses seed {seed}, which `{other}` also draws from",
                f"`{snippet(ctx, node.func)}` reuses seed {seed}, which `{other}` also draws from",
                f"`{snippet(ctx, node.func)}` reuses seed {seed}, which another helper also draws from",
            ),
            detail=f"`{mine}` and `{other}` each build a key from the literal seed {seed}, and {caller} calls both "
            f"(lines {found.first.lineno} and {found.second.lineno}): the same key is used twice, so both draw the "
            "same numbers (two layers start with equal weights); pass each a key split from one parent key.",
            related=(
                RelatedLocation(ctx.path, ctx.source.node_range(found.earlier.call), f"`{other}` draws here"),
                RelatedLocation(ctx.path, ctx.source.node_range(found.first), "both are called here"),
            ),
        )

    @staticmethod
    def split_first(ctx: CheckContext, call: ast.Call, key: ast.Name) -> Fix | None:
        """Insert ``key, subkey = jax.random.split(key)`` before the statement and use ``subkey``."""
        statement: ast.AST | None = call
        parent_of = parents(ctx.index, ctx.scope)
        while statement is not None and not isinstance(statement, ast.stmt):
            statement = parent_of.get(id(statement))
        simple = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return)
        if not isinstance(statement, simple) or not call.args or call.args[0] is not key:
            return None
        indent = ctx.source.line(statement.lineno)[: statement.col_offset]
        if indent.strip():
            return None
        module = ctx.segment(call.func.value) if isinstance(call.func, ast.Attribute) else None
        imports: tuple[Edit, ...] = ()
        if module is None:
            spelling = ctx.module_spelling("jax.random", "jax.random")
            if spelling is None:
                return None
            module, imports = spelling
        subkey = _fresh_subkey(ctx, key.id)
        line = f"{key.id}, {subkey} = {module}.split({key.id})\n{indent}"
        start = ctx.source.node_range(statement).start
        return ctx.fix(
            f"Split `{key.id}` and pass `{subkey}`",
            Applicability.UNSAFE,
            [*imports, Edit(Range(start, start), line), ctx.edit(key, subkey)],
        )
