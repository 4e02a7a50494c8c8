"""The abstract interpreter: an abstract value for every expression of a function.

Each function body is interpreted once, on demand, in statement order: assignments update an
environment, ``if``/``else`` branches are joined, loop bodies run twice so that values flowing
around the loop are joined, and a branch that returns or raises does not flow on. Parameters of
traced functions start as tracers; everything the interpreter cannot follow is ``UNKNOWN``.
Function bodies are never executed: the interpreter only reads the syntax tree.

The interpreter knows Python, ``jax.numpy`` arrays and tracing; what a domain's library objects are
(a Pallas ``BlockSpec``, a ``Mesh``) and which functions get special parameter values (a
``shard_map`` body sees one device's block) it learns from the :class:`InterpreterExtension` s the
domain models hand it, so it imports none of them.
"""

from __future__ import annotations

import ast
import builtins
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from xlalens.analyzers.knowledge import arrays, callback_holders, numpy_equivalents, randomness
from xlalens.analyzers.knowledge.transforms import (
    CALL_KINDS,
    LINEN_APPLY,
    LINEN_INIT,
    LINEN_METHODS,
    PER_DEVICE_TRANSFORMS,
    ParamTracing,
)
from xlalens.analyzers.semantics import array_constructors, array_ops
from xlalens.analyzers.semantics.calls import CallSite, call_graph
from xlalens.analyzers.semantics.classes import ClassModel, class_model
from xlalens.analyzers.semantics.names import (
    BindingKind,
    FunctionNode,
    ModuleIndex,
    Scope,
    all_params,
    assigned_values,
    positional_params,
)
from xlalens.analyzers.semantics.values import (
    UNKNOWN,
    Array,
    ClassRef,
    Const,
    Dict,
    Dim,
    FunctionRef,
    Instance,
    LibraryObject,
    ModuleRef,
    Seq,
    Static,
    TracedTree,
    Transformed,
    Value,
    VariableBox,
    concrete_copy,
    instance,
    join,
    traced_box_content,
    traced_copy,
)
from xlalens.explainers.calculators import dtypes

_ARRAY_ANNOTATIONS = frozenset(
    {
        "jax.Array",
        "jax.numpy.ndarray",
        "jax.numpy.DeviceArray",
        "jax.typing.ArrayLike",
        "chex.Array",
        "jaxtyping.Array",
    }
)
_JAXTYPING_DTYPES = frozenset(
    {
        "Float",
        "Int",
        "Bool",
        "Shaped",
        "Num",
        "Real",
        "Inexact",
        "Integer",
        "UInt",
        "Complex",
        "Key",
    }
)
_MAX_UNROLLED_ITEMS = 32
"""The longest known sequence a list comprehension is evaluated item by item over."""

_ARRAY_NAMESPACES = ("jax.numpy.", "jax.nn.", "jax.scipy.", "jax.random.", "jax.lax.", "jax.image.")
_ARRAY_EVIDENCE = frozenset({"shape", "ndim", "dtype", "at", "T", "mT"}) | arrays.ARRAY_METHODS
_MAX_LOOP_DEPTH = 2
_MAX_CONST_FOLD = 1 << 20
_CONCRETE_CONTEXTS = frozenset(
    {"jax.ensure_compile_time_eval", "jax.disable_jit", "jax.core.eval_context", "jax.extend.core.eval_context"}
)
"""Context managers inside which JAX evaluates eagerly: what is built there from constants is concrete."""
_PASS_THROUGH_DECORATORS = frozenset({"jax.named_call", "builtins.staticmethod", "typing.override"})
"""Decorators that return the function itself, or one that calls it with the same arguments."""
_MAX_CALL_DEPTH = 2
"""How many calls deep the interpreter follows the module's own functions from the one it interprets."""
_MAX_SITE_DEPTH = 3
"""How many callers up a function's parameters are looked for (a caller's own parameters come from its callers)."""
_MAX_SITES = 8
"""A function called from more places than this is a utility: its call sites are not joined."""
_CALL_BUDGET = 400
"""How many (function, argument values) pairs one module's interpreter evaluates at most."""


class FunctionTracing(Protocol):
    """How a function is traced, as far as interpreting its body needs to know.

    Attributes:
        traced_params: Parameter name -> how it is traced; parameters not listed are not traced.
        stages: Whether constants built inside are traced too (``jit``, control-flow bodies).
        via: The transform that traces it (``jax.jit``).
    """

    @property
    def traced_params(self) -> Mapping[str, ParamTracing]: ...

    @property
    def stages(self) -> bool: ...

    @property
    def via(self) -> str: ...

    @property
    def by_callers(self) -> bool:
        """Whether it is traced only because traced functions call it (its parameters are what they pass)."""
        ...

    @property
    def receivers(self) -> Sequence[tuple[ast.expr, Scope]]:
        """For a method handed to a transform as ``obj.method``: each ``obj`` (with its scope)."""
        ...

    @property
    def mapped_axes(self) -> Mapping[str, int]:
        """For ``vmap``: the axis each mapped parameter is sliced along, where known."""
        ...

    @property
    def sites(self) -> Sequence[ast.AST]:
        """The decorators or transform calls (``jax.jit(f)``) that make it traced."""
        ...


@dataclass(frozen=True, slots=True)
class ApiCall:
    """A call of a library function, as an extension sees it.

    Attributes:
        qualname: The callee's qualified name (``jax.sharding.PartitionSpec``).
        node: The call.
        args: The values of the positional arguments.
        keywords: The values of the keyword arguments.
        recorded: Values already computed for sub-expressions (``x`` of ``x.dtype``), by ``id`` of the node.
    """

    qualname: str
    node: ast.Call
    args: Sequence[Value]
    keywords: Mapping[str, Value]
    recorded: Mapping[int, Value]


ParameterValues = Mapping[int, Mapping[str, Value]]
"""Values of some functions' parameters, by ``id`` of the function's node."""


@dataclass(frozen=True, slots=True)
class InterpreterExtension:
    """What one domain model teaches the interpreter.

    Attributes:
        name: The domain (``pallas``), for messages.
        evaluate_call: The value of a call of one of the domain's library functions, ``None`` for any
            other call.
        parameters: The values some functions' parameters take (a ``shard_map`` body's per-device
            blocks), computed once per interpreter; it may itself ask the interpreter for values.
    """

    name: str
    evaluate_call: Callable[[ApiCall], Value | None] | None = None
    parameters: Callable[[Interpreter], ParameterValues] | None = None


@dataclass(frozen=True, slots=True)
class AtRef(Value):
    """``x.at`` or ``x.at[i]``: the indexed-update helper of a JAX array."""

    base: Value


@dataclass(slots=True)
class Evaluation:
    """What interpreting one function (or the module body) found.

    Attributes:
        values: The value of every expression, by ``id`` of its node.
        summary: Each local name's value, joined over its assignments.
        returned: What the function returns, joined over its ``return`` statements (``None`` when it
            can fall off its end); ``UNKNOWN`` for generators and coroutines.
    """

    values: dict[int, Value] = field(default_factory=dict)
    summary: dict[str, Value] = field(default_factory=dict)
    returned: Value = UNKNOWN


def _is_number(value: Value) -> bool:
    if isinstance(value, Const):
        return isinstance(value.value, int | float | complex) and not isinstance(value.value, bool)
    return isinstance(value, Static) and value.kind in ("int", "float")


def _kind(value: Value) -> str | None:
    """``int`` or ``float`` for a number (known or not)."""
    if isinstance(value, Const):
        return type(value.value).__name__
    return value.kind if isinstance(value, Static) else None


def _is_arrayish(value: Value) -> bool:
    return isinstance(value, Array) or _is_number(value)


class Interpreter:
    """Interprets functions of one module lazily and caches the results.

    Args:
        index: The module's scopes and names.
        traced: How the module's traced functions are traced, keyed by ``id(node)``.
        extensions: What the domain models add (library values, parameter values).
    """

    def __init__(
        self,
        index: ModuleIndex,
        traced: Mapping[int, FunctionTracing],
        extensions: Sequence[InterpreterExtension] = (),
    ) -> None:
        self.index = index
        self.traced = traced
        self.extensions = tuple(extensions)
        self.call_evaluators = [e.evaluate_call for e in self.extensions if e.evaluate_call is not None]
        self._evaluations: dict[int, Evaluation] = {}
        self._in_progress: set[int] = set()
        self._provided_sources: list[ParameterValues] | None = None
        self._provided_keys: set[int] = set()
        self._providing: set[int] = set()
        self._call_results: dict[tuple[object, ...], Value] = {}
        self._calling: list[int] = []
        self._calling_nodes: list[FunctionNode] = []
        self._call_budget = _CALL_BUDGET
        self._site_depth = 0
        self._sites_cut = False
        self._wrapper_calls_recorded: set[int] = set()
        self._provisional: dict[int, frozenset[int]] = {}
        """Evaluations to redo when next asked from the top, with the functions they found in progress."""
        self._cycle_hits: list[int] = []
        """Every evaluation asked for while it was in progress (so it answered nothing), in order."""
        self._untraced_sites = 0
        self.dynamic_sites: dict[int, list[CallSite]] = {}
        """Calls the call graph cannot resolve alone (``model(x)`` of an object whose class is known only
        from its value), found while functions were evaluated, by ``id`` of the callee."""
        self._recorded_calls: set[int] = set()
        self._generators: dict[int, bool] = {}
        self._array_reads: dict[int, frozenset[str]] = {}

    def evaluation(self, scope: Scope) -> Evaluation:
        """The evaluation of the function ``scope`` opens (or of the module body).

        A function's parameters get, in this order of trust: the values a domain model provides
        (``shard_map``'s blocks), the tracers of the transform that traces it, an array annotation,
        and the join of what the module's calls of it pass (only the calls from traced functions when
        it is traced because they call it).
        """
        key = id(scope.node)
        found = self._evaluations.get(key)
        # Computed while its callers were left out, or while a function it reads was half evaluated:
        # asked now from the top, with that function done, it is computed again. (While that function
        # is still in progress, computing it again would meet the same gap.)
        if (
            found is not None
            and key in self._provisional
            and not (self._site_depth or self._untraced_sites)
            and not self._provisional[key] & self._in_progress
        ):
            del self._provisional[key]
            del self._evaluations[key]
            found = None
        if found is not None:
            return found
        if key in self._in_progress:
            self._cycle_hits.append(key)
            return Evaluation()
        # A provider evaluates call sites, which may evaluate this function: let it, and keep the result.
        params: Mapping[str, Value] | None = self.provided_for(key) if scope.is_function else None
        found = self._evaluations.get(key)
        if found is not None:
            return found
        self._in_progress.add(key)
        cut = False
        hits = len(self._cycle_hits)
        try:
            if scope.is_function and params is None:
                params = self.call_site_params(scope.node)  # type: ignore[arg-type]
                cut, self._sites_cut = self._sites_cut, False
            run = _FunctionRun(self, scope, records_calls=True)
            run.execute(params)
            evaluation = run.evaluation()
        finally:
            self._in_progress.discard(key)
        # Asked while a function it reads from was half evaluated (a jitted function's evaluation asks
        # for its caller's, which reads the jitted function's defaults): what it read there was unknown.
        blockers = frozenset(hit for hit in self._cycle_hits[hits:] if hit != key)
        if key not in self._providing:
            # (one evaluated while its own parameters are being provided holds only for that query)
            self._evaluations[key] = evaluation
        if cut or blockers:
            # Its callers were left out for depth or cost: the answer holds until it is asked from the top.
            self._provisional[key] = blockers
        return evaluation

    def call_site_params(self, function: FunctionNode) -> dict[str, Value] | None:
        """The parameters' values joined over the module's calls of ``function``; ``None`` when they say nothing.

        Only parameters that the function's own transform does not trace are given values, and only
        when every call of the function is seen (it does not escape) and lines up with its parameters.
        """
        graph = call_graph(self.index)
        context = self.traced.get(id(function))
        if self._site_depth >= _MAX_SITE_DEPTH:
            self._sites_cut = self._sites_cut or not self._never_called(function, context)
            return None
        # Traced only because traced functions call it: its traced run is the one those calls make,
        # whatever other callers it may have elsewhere.
        from_traced_callers = context is not None and context.by_callers
        if context is not None and not from_traced_callers:
            self._record_wrapper_calls(function, context)
        sites = [*graph.sites_of(function), *self.dynamic_sites.get(id(function), ())]
        # Traced by a transform whose result is called here (`jax.jit(model.apply)(variables, x)`): those
        # calls are the traced runs; a call elsewhere would run it untraced.
        through_transform = [site for site in sites if site.wrapper is not None] if context is not None else []
        if through_transform and not from_traced_callers:
            sites = through_transform
        elif not from_traced_callers and (graph.escapes_by_name(function) or not self._references_resolved(function)):
            return None
        untraced = context is None
        if untraced and self._untraced_sites:
            # The callers of an untraced function get no parameters from their own callers: a
            # cascade up the whole module would cost more than what it finds.
            self._sites_cut = self._sites_cut or not self._never_called(function, context)
            return None
        if context is not None and context.by_callers:
            sites = [site for site in sites if self._traced_scope(site.caller)]
        if not sites or len(sites) > _MAX_SITES:
            return None
        own: Mapping[str, ParamTracing] = context.traced_params if context is not None else {}
        per_device = PER_DEVICE_TRANSFORMS.get(context.via) if context is not None else None
        if per_device == "shard":
            # The call passes global arrays; the body sees blocks the shard_map model works out.
            own = {name: ParamTracing.NONE for name in own}
        self._site_depth += 1
        self._untraced_sites += untraced
        try:
            return self._join_sites(function, sites, own, mapped=per_device == "map")
        finally:
            self._site_depth -= 1
            self._untraced_sites -= untraced

    def _never_called(self, function: FunctionNode, context: FunctionTracing | None) -> bool:
        """Whether an untraced ``function`` has no call in the module that could give its parameters values.

        Cutting the search for call sites short marks an evaluation provisional, to be redone when
        asked from the top; for a function nobody in the module calls (a test method, ``setUp``, an
        entry point) the top gives nothing more, and redoing it would only repeat the same work.
        """
        if context is not None:
            return False
        graph = call_graph(self.index)
        return not (
            graph.sites_of(function) or self.dynamic_sites.get(id(function)) or graph.attribute_references(function)
        )

    def _join_sites(
        self, function: FunctionNode, sites: Sequence[CallSite], own: Mapping[str, ParamTracing], mapped: bool = False
    ) -> dict[str, Value] | None:
        joined: dict[str, Value] = {}
        context = self.traced.get(id(function))
        axes: Mapping[str, int] = context.mapped_axes if context is not None else {}
        for site in sites:
            passed = site.parameters()
            if passed is None:
                return None
            values: dict[str, Value] = {}
            for name, default in _defaults(function).items():
                if name not in passed:
                    values[name] = self.value_of(default, self._defining_scope(function))
            for name, expr in passed.items():
                value = self.value_of(expr, site.caller)
                if site.mapped and name not in own:
                    # Not mapped by the transform's in_axes: passed whole, when in_axes was read.
                    value = value if own else UNKNOWN
                elif site.mapped and own[name] is not ParamTracing.IN_AXES:
                    value = _mapped(value, axes.get(name))
                values[name] = value
            names = [*positional_params(function)[site.bound :], *(a.arg for a in function.args.kwonlyargs)]
            if site.bound == 1 and positional_params(function):
                receiver = self.value_of(site.receiver, site.caller) if site.receiver is not None else UNKNOWN
                values[positional_params(function)[0]] = receiver
                names.insert(0, positional_params(function)[0])
            for name in names:
                value = values.get(name, UNKNOWN)
                if name in own and own[name] is ParamTracing.NONE:
                    continue
                if name in own:
                    value = _as_parameter(_mapped(value, 0) if mapped else value, own[name], name)
                joined[name] = value if name not in joined else join(joined[name], value)
        return {name: value for name, value in joined.items() if value is not UNKNOWN}

    def attribute_value(self, model: ClassModel, attr: str) -> Value:
        """What the class's methods assign to ``self.attr`` (joined), or its plain class attribute."""
        assignments = model.attribute_assignments.get(attr)
        if assignments:
            value: Value | None = None
            for expr, method in assignments:
                scope = self.index.scope_of(method)
                found = self.value_of(expr, scope) if scope is not None else UNKNOWN
                value = found if value is None else join(value, found)
            return value if value is not None else UNKNOWN
        expr = model.class_values.get(attr) or dict(model.fields).get(attr)
        if isinstance(expr, ast.Constant):
            return Const(expr.value)
        return UNKNOWN

    def array_attributes_read(self, node: FunctionNode) -> frozenset[str]:
        """The names whose array-only attributes (``x.shape``, ``x.at``, ``x.sum``) the body reads (walked once)."""
        found = self._array_reads.get(id(node))
        if found is None:
            names: set[str] = set()
            body = [node.body] if isinstance(node, ast.Lambda) else node.body
            for statement in body:
                for child in ast.walk(statement):
                    if (
                        type(child) is ast.Attribute and type(child.value) is ast.Name and child.attr in _ARRAY_EVIDENCE  # type: ignore[attr-defined]
                    ):
                        names.add(child.value.id)  # type: ignore[attr-defined]
            found = self._array_reads[id(node)] = frozenset(names)
        return found

    def forget_provided_params(self) -> None:
        """Ask the extensions again for parameter values (more functions became traced since)."""
        for key in self._provided_keys:
            self._evaluations.pop(key, None)
        self._provided_keys.clear()
        self._provided_sources = None

    def settle(self) -> None:
        """Drop the evaluations made while their callers were left out, once the module body is evaluated.

        Evaluating the module's statements evaluates the functions they call while the module itself
        is still in progress, so those functions miss the calls the module makes (``model.update(x)``)
        and keep a provisional answer. With the module done, they are evaluated again when next asked.
        """
        for key in self._provisional:
            self._evaluations.pop(key, None)
        self._provisional.clear()

    def forget(self, function: FunctionNode) -> None:
        """Drop the evaluation of ``function`` (it became traced, so its parameters and arrays change)."""
        self._evaluations.pop(id(function), None)

    def record_call(self, site: CallSite) -> None:
        """Remember a call resolved through values (once), unless the call graph already has it."""
        if id(site.call) in self._recorded_calls:
            return
        self._recorded_calls.add(id(site.call))
        if all(known.call is not site.call for known in call_graph(self.index).sites_of(site.callee)):
            self.dynamic_sites.setdefault(id(site.callee), []).append(site)

    def is_generator(self, node: ast.AST) -> bool:
        """Whether a function's own body yields (from the index when it collected the yields)."""
        if ast.Yield in self.index.nodes and ast.YieldFrom in self.index.nodes:
            return id(node) in self.index.derived("generators", _generators)
        found = self._generators.get(id(node))
        if found is None:
            found = self._generators[id(node)] = _is_generator(node)
        return found

    def _record_wrapper_calls(self, function: FunctionNode, context: FunctionTracing) -> None:
        """Evaluate where the transformed function is called under the name it was stored as.

        ``self.update = jax.jit(self._update)`` then ``trainer.update(params, x)``: evaluating the
        caller records the call (once per function), so its arguments type ``_update``.
        """
        if id(function) in self._wrapper_calls_recorded:
            return
        self._wrapper_calls_recorded.add(id(function))
        assigned = self.index.derived("assigned-values", assigned_values)
        names: set[str] = set()
        for site in context.sites:
            for target in assigned.get(id(site), ()):
                if isinstance(target, ast.Name | ast.Attribute):
                    names.add(target.id if isinstance(target, ast.Name) else target.attr)
        if not names:
            return
        callers: list[Scope] = []
        for call, scope in self.index.nodes.get(ast.Call, ()):
            func = call.func  # type: ignore[attr-defined]
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if called in names:
                owner = scope.enclosing_function() or self.index.module_scope
                if owner not in callers:
                    callers.append(owner)
        for owner in callers[:_MAX_SITES]:
            if id(owner.node) not in self._in_progress:
                self.evaluation(owner)

    def _references_resolved(self, function: FunctionNode) -> bool:
        """Whether every ``obj.name`` attribute of the function's name is a call this interpreter resolved to it.

        Evaluates the functions those attributes sit in, which records the calls they resolve.
        """
        references = call_graph(self.index).attribute_references(function)
        if not references:
            return True
        if len(references) > _MAX_SITES:
            return False
        for _, scope in references:
            owner = scope.enclosing_function() or self.index.module_scope
            if id(owner.node) in self._in_progress:
                # Its calls are not all recorded yet: the answer holds only until the owner is done.
                self._cycle_hits.append(id(owner.node))
                return False
            self.evaluation(owner)
        resolved: set[int] = set()
        for site in self.dynamic_sites.get(id(function), ()):
            func: ast.expr = site.call.func
            while isinstance(func, ast.Call) and func.args:  # jax.jit(obj.method)(x)
                func = func.args[0]
            resolved.add(id(func))
        return all(id(attribute) in resolved for attribute, _ in references)

    def _traced_scope(self, scope: Scope) -> bool:
        function = scope.enclosing_function()
        return function is not None and id(function.node) in self.traced

    def defining_scope(self, function: FunctionNode) -> Scope:
        """The scope a function is defined in (where its decorators and defaults are evaluated)."""
        return self._defining_scope(function)

    def _defining_scope(self, function: FunctionNode) -> Scope:
        scope = self.index.scope_of(function)
        return scope.parent if scope is not None and scope.parent is not None else self.index.module_scope

    def call_result(
        self,
        function: FunctionNode,
        args: Sequence[Value],
        keywords: Mapping[str, Value],
        bound: int,
        staged: bool,
        receiver: Value | None = None,
    ) -> Value:
        """What calling the module's own ``function`` with these argument values returns.

        The callee is interpreted on the caller's values (not its own joined parameters), at most
        :data:`_MAX_CALL_DEPTH` calls deep and :data:`_CALL_BUDGET` times per module; beyond that, and
        for recursion, the result is unknown. ``staged``: the caller is being traced, so arrays the
        callee builds are tracers too.
        """
        # A lambda is one expression: following it costs little, so only named functions count
        # towards the depth (a helper's `tree.map(lambda p: ..., params)` is still followed).
        named = sum(1 for node in self._calling_nodes if not isinstance(node, ast.Lambda))
        if id(function) in self._calling or (named >= _MAX_CALL_DEPTH and not isinstance(function, ast.Lambda)):
            return UNKNOWN
        scope = self.index.scope_of(function)
        if scope is None or isinstance(function, ast.AsyncFunctionDef):
            return UNKNOWN
        positional = positional_params(function)[bound:]
        if len(args) > len(positional) and function.args.vararg is None:
            return UNKNOWN
        params: dict[str, Value] = dict(zip(positional, args, strict=False))
        if receiver is not None and bound == 1 and positional_params(function):
            params[positional_params(function)[0]] = receiver
        names = set(all_params(function))
        for name, value in keywords.items():
            if name in params:
                return UNKNOWN
            if name in names:
                params[name] = value
        for name, default in _defaults(function).items():
            if name not in params:
                params[name] = self.value_of(default, self._defining_scope(function))
        try:
            key: tuple[object, ...] = (id(function), tuple(sorted(params.items())), staged)
            hash(key)
        except TypeError:
            return UNKNOWN
        found = self._call_results.get(key)
        if found is not None:
            return found
        if self._call_budget <= 0:
            return UNKNOWN
        self._call_budget -= 1
        self._calling.append(id(function))
        self._calling_nodes.append(function)
        hits = len(self._cycle_hits)
        try:
            run = _FunctionRun(self, scope, staged=staged)
            run.execute(params)
            result = run.evaluation().returned
        finally:
            self._calling.pop()
            self._calling_nodes.pop()
        if not any(
            hit in self._in_progress and hit != id(self.index.module_scope.node) for hit in self._cycle_hits[hits:]
        ):
            # (a result that read a half-evaluated function holds only for this query)
            self._call_results[key] = result
        return result

    def provided_for(self, key: int) -> Mapping[str, Value] | None:
        """The parameter values an extension provides for the function with ``id`` ``key`` (``shard_map``
        bodies' per-device blocks, control-flow bodies' operands), if any; providers may be lazy."""
        if key in self._providing:
            return None
        if self._provided_sources is None:
            # A provider evaluates call sites, which may ask for this again: it gets nothing meanwhile.
            self._provided_sources = []
            sources = [extension.parameters(self) for extension in self.extensions if extension.parameters is not None]
            self._provided_sources = sources
            for source in sources:
                if isinstance(source, dict):
                    # A body interpreted while an eager provider was at work did not have its parameters yet.
                    for provided in source:
                        self._evaluations.pop(provided, None)
        self._providing.add(key)
        try:
            for source in self._provided_sources:
                found = source.get(key)
                if found is not None:
                    self._provided_keys.add(key)
                    return found
        finally:
            self._providing.discard(key)
        return None

    def call_value(
        self, callee: FunctionRef | Transformed, args: list[Value], keywords: dict[str, Value], scope: Scope
    ) -> Value:
        """What calling ``callee`` (one of the module's functions, possibly transformed) on these
        argument values returns, as code in ``scope`` would see it while a transform traces it."""
        return _FunctionRun(self, scope, staged=True).call_traced(callee, args, keywords)

    def value_of(self, node: ast.AST, scope: Scope) -> Value:
        """The abstract value of expression ``node``, which sits in ``scope``."""
        if type(node) is ast.Constant:
            return Const(node.value)  # type: ignore[attr-defined]
        owner = scope.enclosing_function() or self.index.module_scope
        return self.evaluation(owner).values.get(id(node), UNKNOWN)

    def value_with(self, node: ast.expr, scope: Scope, names: Mapping[str, Value]) -> Value:
        """The value of expression ``node`` (in ``scope``) when some of the names it reads are bound to ``names``.

        Every other name keeps the value it has at ``node``. Used to evaluate one expression for
        two consecutive loop iterations (``jnp.ones(i)`` with ``i`` = 3, then 4) without
        re-interpreting the function.
        """
        owner = scope.enclosing_function() or self.index.module_scope
        recorded = self.evaluation(owner).values
        run = _FunctionRun(self, owner)
        for child in ast.walk(node):
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                run.env.setdefault(child.id, recorded.get(id(child), UNKNOWN))
        run.env.update(names)
        return run.expr(node)

    def evaluation_with(self, scope: Scope, params: Mapping[str, Value]) -> Evaluation:
        """The evaluation of function ``scope`` when some of its parameters have the values ``params``.

        Not cached: it follows one call site's argument values into the body (a Pallas wrapper
        called with arrays of known shapes), while :meth:`evaluation` stays the function's own.
        """
        run = _FunctionRun(self, scope)
        run.execute(params)
        return run.evaluation()

    def free_variable(self, name: str, scope: Scope) -> Value:
        """The value a name from an enclosing function or the module has (joined over its bindings)."""
        found = self.index.lookup(name, scope)
        if found is None:
            return UNKNOWN
        owner, bindings = found
        if owner.is_class:
            return UNKNOWN
        if id(owner.node) in self._in_progress and len(bindings) == 1:
            # Called while the module (or the enclosing function) is still being run: its classes
            # and plain functions are what their statements define.
            binding = bindings[0]
            if binding.kind is BindingKind.CLASS and isinstance(binding.node, ast.ClassDef):
                return ClassRef(binding.node)
            if binding.kind is BindingKind.DEF and isinstance(binding.node, ast.FunctionDef):
                return FunctionRef(binding.node) if not binding.node.decorator_list else UNKNOWN
        evaluation = self.evaluation(owner)
        return evaluation.summary.get(name, UNKNOWN)


class _FunctionRun:
    def __init__(
        self, interpreter: Interpreter, scope: Scope, staged: bool = False, records_calls: bool = False
    ) -> None:
        self.interpreter = interpreter
        self.records_calls = records_calls
        self.index = interpreter.index
        self.scope = scope
        self.values: dict[int, Value] = {}
        self.summary: dict[str, Value] = {}
        self.env: dict[str, Value] = {}
        self.returns: list[Value] = []
        self.loop_depth = 0
        node = scope.node
        self.context: FunctionTracing | None = interpreter.traced.get(id(node))
        self.staged = staged or bool(self.context and self.context.stages)
        self.is_module = isinstance(node, ast.Module)
        self.local_names = set(scope.bindings) if not self.is_module else set()

    # -- driver -------------------------------------------------------------------------------

    def execute(self, params: Mapping[str, Value] | None = None) -> None:
        node = self.scope.node
        if isinstance(node, ast.Module):
            self.block(node.body)
            return
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        self.bind_params(node)
        for name, value in (params or {}).items():
            self.env[name] = self.summary[name] = value
        if isinstance(node, ast.Lambda):
            self.returns.append(self.expr(node.body))
        elif not self.block(node.body):
            self.returns.append(Const(None))

    def evaluation(self) -> Evaluation:
        """What this run found; what it returns is unknown for generators and coroutines."""
        node = self.scope.node
        returned: Value = UNKNOWN
        if self.returns and not isinstance(node, ast.AsyncFunctionDef) and not self.interpreter.is_generator(node):
            returned = self.returns[0]
            for value in self.returns[1:]:
                returned = join(returned, value)
        return Evaluation(self.values, self.summary, returned)

    def bind_params(self, node: FunctionNode) -> None:
        traced = self.context.traced_params if self.context else {}
        annotations = {a.arg: a.annotation for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
        evidence = self.array_evidence(node) if traced else set()
        receiver = self.receiver_param(node, traced)
        for name in all_params(node):
            if receiver is not None and name == receiver[0]:
                self.assign_name(name, receiver[1])
                continue
            tracing = traced.get(name)
            is_array = self.annotated_as_array(annotations.get(name)) or name in evidence
            if tracing is ParamTracing.ALL:
                value: Value = Array(traced=True) if is_array else TracedTree(name)
            elif tracing is ParamTracing.ARRAYS_ONLY:
                value = Array(traced=True) if is_array else TracedTree(name, arrays_only=True)
            elif is_array:
                value = Array(traced=False)
            else:
                value = UNKNOWN
            self.assign_name(name, value)

    def receiver_param(self, node: FunctionNode, traced: Mapping[str, ParamTracing]) -> tuple[str, Value] | None:
        """A method's first parameter and its value: an object of its class (unless a transform traces it)."""
        owner = self.scope.parent
        if owner is None or not isinstance(owner.node, ast.ClassDef) or not isinstance(node, ast.FunctionDef):
            return None
        decorators = {_decorator_name(d) for d in node.decorator_list}
        first = node.args.args[0].arg if node.args.args else None
        if first is None or first in traced or decorators & {"staticmethod", "classmethod"}:
            return None
        value: Value | None = None
        for expr, scope in self.context.receivers if self.context is not None else ():
            found = self.interpreter.value_of(expr, scope)
            if not (isinstance(found, Instance) and found.node is owner.node):
                value = None
                break
            value = found if value is None else join(value, found)
        return first, value if value is not None else instance(owner.node)

    def array_evidence(self, node: FunctionNode) -> set[str]:
        """Parameters the body uses in ways only an array allows (``x.shape``, ``x.sum()``, ``x.at``).

        Not used under flax.nnx transforms, whose Variables also have array attributes, nor for
        Pallas kernels, whose parameters are mutable refs (``o_ref[...] = v`` is how they write).
        """
        if self.context is None or self.context.via.startswith(("flax.", "jax.experimental.pallas.")):
            return set()
        params = set(self.context.traced_params)
        used = self.interpreter.array_attributes_read(node)
        return {name for name in used if name in params}

    def annotated_as_array(self, annotation: ast.expr | None) -> bool:
        if annotation is None:
            return False
        if isinstance(annotation, ast.Subscript):
            head = self.index.qualname(annotation.value, self.scope) or ""
            return head.startswith("jaxtyping.") and head.rsplit(".", 1)[-1] in _JAXTYPING_DTYPES
        return self.index.qualname(annotation, self.scope) in _ARRAY_ANNOTATIONS

    # -- statements ---------------------------------------------------------------------------

    def block(self, statements: list[ast.stmt]) -> bool:
        """Run statements; return True when the block always ends in return/raise/break."""
        return any(self.statement(statement) for statement in statements)

    def assign_name(self, name: str, value: Value) -> None:
        self.env[name] = value
        previous = self.summary.get(name)
        self.summary[name] = value if previous is None else join(previous, value)

    def bind(self, target: ast.expr, value: Value) -> None:
        if isinstance(target, ast.Name):
            self.record(target, value)
            self.assign_name(target.id, value)
        elif isinstance(target, ast.Tuple | ast.List):
            elements = self.unpack(value, len(target.elts))
            for element, item in zip(target.elts, elements, strict=True):
                self.bind(element, item)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, UNKNOWN)
        elif isinstance(target, ast.Subscript):
            self.expr(target.value)
            self.expr(target.slice)
        elif isinstance(target, ast.Attribute):
            self.expr(target.value)

    def unpack(self, value: Value, count: int) -> list[Value]:
        if isinstance(value, Seq) and len(value.items) == count:
            return list(value.items)
        if isinstance(value, Array) and value.traced:
            return [Array(traced=True) for _ in range(count)]
        if isinstance(value, TracedTree):
            return [TracedTree(value.param, value.arrays_only) for _ in range(count)]
        return [UNKNOWN] * count

    def statement(self, node: ast.stmt) -> bool:
        handler = _STATEMENTS.get(type(node))
        if handler is None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child)
            return False
        return handler(self, node)

    def s_assign(self, node: ast.Assign) -> bool:
        value = self.expr(node.value)
        for target in node.targets:
            self.bind(target, value)
        return False

    def s_annassign(self, node: ast.AnnAssign) -> bool:
        if node.value is not None:
            value = self.expr(node.value)
            if isinstance(node.target, ast.Name) and self.annotated_as_array(node.annotation) and value is UNKNOWN:
                value = Array(traced=self.staged)
            self.bind(node.target, value)
        return False

    def s_augassign(self, node: ast.AugAssign) -> bool:
        right = self.expr(node.value)
        target = node.target
        if isinstance(target, ast.Name):
            current = self.lookup(target.id)
            self.record(target, current)
            # NumPy's augmented assignment updates the array itself: a read-only view stays one.
            in_place = isinstance(current, Array) and current.library == HOST_VIEW
            self.assign_name(target.id, current if in_place else self.binop(node.op, current, right))
        else:
            self.bind(target, UNKNOWN)
        return False

    def s_expr(self, node: ast.Expr) -> bool:
        self.expr(node.value)
        return False

    def s_return(self, node: ast.Return) -> bool:
        self.returns.append(self.expr(node.value) if node.value is not None else Const(None))
        return True

    def s_raise(self, node: ast.Raise) -> bool:
        if node.exc is not None:
            self.expr(node.exc)
        return True

    def s_jump(self, node: ast.stmt) -> bool:
        return True

    def s_if(self, node: ast.If) -> bool:
        test = self.expr(node.test)
        if isinstance(test, Const) and isinstance(test.value, bool) and _is_type_test(node.test):
            # `if isinstance(x, np.ndarray):` on a JAX array: only one branch ever runs.
            return self.block(node.body if test.value else node.orelse)
        before = dict(self.env)
        body_ends = self.block(node.body)
        after_body = self.env
        self.env = dict(before)
        else_ends = self.block(node.orelse)
        if body_ends and else_ends:
            return True
        if body_ends:
            return False
        if else_ends:
            self.env = after_body
            return False
        self.env = self.join_env(after_body, self.env)
        return False

    def join_env(self, a: dict[str, Value], b: dict[str, Value]) -> dict[str, Value]:
        merged = {}
        for name in a.keys() | b.keys():
            if name in a and name in b:
                merged[name] = join(a[name], b[name])
            else:
                merged[name] = UNKNOWN
        return merged

    def loop(self, run_once: Callable[[], None], orelse: list[ast.stmt]) -> bool:
        before = dict(self.env)
        passes = 2 if self.loop_depth < _MAX_LOOP_DEPTH else 1
        self.loop_depth += 1
        try:
            for _ in range(passes):
                run_once()
                self.env = self.join_env(before, self.env)
                before = dict(self.env)
        finally:
            self.loop_depth -= 1
        self.block(orelse)
        return False

    def s_for(self, node: ast.For | ast.AsyncFor) -> bool:
        iterable = self.expr(node.iter)
        element = self.element_of(iterable)

        def run_once() -> None:
            self.bind(node.target, element)
            self.block(node.body)

        return self.loop(run_once, node.orelse)

    def s_while(self, node: ast.While) -> bool:
        def run_once() -> None:
            self.expr(node.test)
            self.block(node.body)

        return self.loop(run_once, node.orelse)

    def element_of(self, iterable: Value) -> Value:
        if isinstance(iterable, Static) and iterable.kind == "range":
            return Static("int")
        if isinstance(iterable, Seq) and iterable.items:
            value = iterable.items[0]
            for item in iterable.items[1:]:
                value = join(value, item)
            return value
        if isinstance(iterable, Array) and iterable.shape:
            # Iterating an array gives its rows.
            return Array(iterable.shape[1:], iterable.dtype, iterable.weak_type, iterable.traced, iterable.library)
        if isinstance(iterable, Array) and iterable.traced:
            return Array(traced=True)
        return UNKNOWN

    def s_with(self, node: ast.With | ast.AsyncWith) -> bool:
        concrete = False
        for item in node.items:
            self.expr(item.context_expr)
            context = item.context_expr.func if isinstance(item.context_expr, ast.Call) else item.context_expr
            concrete = concrete or self.index.qualname(context, self.scope) in _CONCRETE_CONTEXTS
            if item.optional_vars is not None:
                self.bind(item.optional_vars, UNKNOWN)
        if not concrete:
            return self.block(node.body)
        # Under these contexts JAX computes with concrete values: arrays built there are not tracers.
        staged, self.staged = self.staged, False
        try:
            return self.block(node.body)
        finally:
            self.staged = staged

    def s_try(self, node: ast.Try) -> bool:
        before = dict(self.env)
        self.block(node.body)
        envs = [self.env]
        for handler in node.handlers:
            self.env = self.join_env(before, envs[0])
            if handler.type is not None:
                self.expr(handler.type)
            if handler.name:
                self.assign_name(handler.name, UNKNOWN)
            if not self.block(handler.body):
                envs.append(self.env)
        self.env = envs[0]
        self.block(node.orelse)
        envs[0] = self.env
        merged = envs[0]
        for env in envs[1:]:
            merged = self.join_env(merged, env)
        self.env = merged
        return self.block(node.finalbody)

    def s_def(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        for decorator in node.decorator_list:
            self.expr(decorator)
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            self.expr(default)
        self.assign_name(node.name, self.decorated(node, FunctionRef(node)))
        return False

    def decorated(self, node: ast.FunctionDef | ast.AsyncFunctionDef, function: FunctionRef) -> Value:
        """What the decorators make of a function: transforms wrap it, other decorators hide it."""
        value: Value = function
        scope = self.interpreter.defining_scope(node)
        for decorator in reversed(node.decorator_list):
            head = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = self.index.qualname(head, scope)
            keywords = decorator.keywords if isinstance(decorator, ast.Call) else []
            if name == "functools.partial" and isinstance(decorator, ast.Call) and decorator.args:
                name = self.index.qualname(decorator.args[0], scope)
            if name in _PASS_THROUGH_DECORATORS:
                continue
            if name not in CALL_KINDS:
                return UNKNOWN
            options = _literal_options(keywords)
            if CALL_KINDS[name] == "map":
                # `**options`, or `partial(jax.vmap, (0, None))` by position, may set them.
                hidden = any(k.arg is None for k in keywords) or (
                    isinstance(decorator, ast.Call) and len(decorator.args) > 1
                )
                given = {
                    k.arg: self.values.get(id(k.value)) or _literal_value(k.value)
                    for k in keywords
                    if k.arg in ("in_axes", "out_axes")
                }
                options += _map_axes_options(given.get("in_axes", Const(0)), given.get("out_axes", Const(0)), hidden)
            value = Transformed(name, value, options)
        return value

    def s_class(self, node: ast.ClassDef) -> bool:
        for expr in [*node.decorator_list, *node.bases]:
            self.expr(expr)
        for statement in node.body:
            # The methods' defaults (``def __init__(self, shrink=0.5)``) and the fields' defaults
            # (``dtype: Any = jnp.bfloat16``) are what constructions and calls that omit them get.
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                args = statement.args
                for default in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
                    self.expr(default)
            elif isinstance(statement, ast.AnnAssign | ast.Assign) and statement.value is not None:
                self.expr(statement.value)
        self.assign_name(node.name, ClassRef(node))
        return False

    def s_import(self, node: ast.Import | ast.ImportFrom) -> bool:
        for alias in node.names:
            name = alias.asname or alias.name.split(".", 1)[0]
            qualname = self.index.resolve_name(name, self.scope)
            self.assign_name(name, _module_value(qualname) if qualname else UNKNOWN)
        return False

    def s_delete(self, node: ast.Delete) -> bool:
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.env[target.id] = UNKNOWN
            else:
                self.bind(target, UNKNOWN)
        return False

    def s_assert(self, node: ast.Assert) -> bool:
        self.expr(node.test)
        if node.msg is not None:
            self.expr(node.msg)
        return False

    def s_match(self, node: ast.Match) -> bool:
        self.expr(node.subject)
        before = dict(self.env)
        merged: dict[str, Value] | None = None
        for case in node.cases:
            self.env = dict(before)
            if case.guard is not None:
                self.expr(case.guard)
            if not self.block(case.body):
                merged = self.env if merged is None else self.join_env(merged, self.env)
        self.env = self.join_env(before, merged) if merged is not None else before
        return False

    def s_noop(self, node: ast.stmt) -> bool:
        return False

    # -- expressions --------------------------------------------------------------------------

    def record(self, node: ast.AST, value: Value) -> Value:
        self.values[id(node)] = value
        return value

    def expr(self, node: ast.expr) -> Value:
        handler = _EXPRESSIONS.get(type(node))
        value = UNKNOWN if handler is None else handler(self, node)
        if handler is None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child)
        self.values[id(node)] = value
        return value

    def lookup(self, name: str) -> Value:
        value = self.env.get(name)
        if value is not None:
            return value
        qualname = self.index.resolve_name(name, self.scope)
        if qualname is not None:
            return _module_value(qualname)
        if name in self.local_names:
            return UNKNOWN
        if self.is_module:
            return UNKNOWN
        return self.interpreter.free_variable(name, self.scope.parent or self.index.module_scope)

    def e_name(self, node: ast.Name) -> Value:
        if type(node.ctx) is not ast.Load:
            return UNKNOWN
        return self.lookup(node.id)

    def e_constant(self, node: ast.Constant) -> Value:
        return Const(node.value)

    def e_attribute(self, node: ast.Attribute) -> Value:
        base = self.expr(node.value)
        attr = node.attr
        if isinstance(base, VariableBox):
            if attr == "value":
                return base.inner
            base = base.inner  # a Variable forwards array attributes (`param.shape`) to its value
        if isinstance(base, ModuleRef):
            return _module_value(f"{base.qualname}.{attr}")
        if isinstance(base, Instance):
            return self.instance_attribute(base, attr) if type(node.ctx) is ast.Load else UNKNOWN
        if isinstance(node.value, ast.Name) and type(node.ctx) is ast.Load:
            method = call_graph(self.index).method_of_self(node.value.id, attr, self.scope)
            if method is not None:
                return self.decorated(method, FunctionRef(method, 1))
        if isinstance(base, Array):
            if attr == "shape":
                if base.shape is None:
                    return Static("tuple")
                return Seq(tuple(Static("int") if d is None else Const(d) for d in base.shape))
            if attr in ("ndim", "size"):
                if attr == "ndim" and base.shape is not None:
                    return Const(len(base.shape))
                return Static("int")
            if attr == "dtype":
                return Static("dtype")
            if attr in ("T", "mT", "real", "imag"):
                shape = tuple(reversed(base.shape)) if attr == "T" and base.shape is not None else base.shape
                return Array(
                    shape,
                    base.dtype if attr in ("T", "mT") else None,
                    base.weak_type,
                    base.traced,
                    base.library,
                )
            if attr == "at" and base.library == "jax":
                return AtRef(base)
            return UNKNOWN
        if isinstance(base, TracedTree):
            if attr in ("shape", "ndim", "size", "dtype"):
                return Static("tuple" if attr == "shape" else "int" if attr != "dtype" else "dtype")
            if attr == "at":
                return AtRef(Array(traced=True))
            if attr in ("T", "mT") and not base.arrays_only:
                return Array(traced=True)
            return UNKNOWN
        return UNKNOWN

    def e_subscript(self, node: ast.Subscript) -> Value:
        base = self.expr(node.value)
        index = self.expr(node.slice)
        if isinstance(base, VariableBox):
            base = base.inner  # `param[...]` reads the array the nnx Variable holds
        if isinstance(base, AtRef):
            return base
        if isinstance(base, Array):
            if base.library == "jax":
                traced = base.traced or index.is_traced_array() or isinstance(index, TracedTree)
                return Array(self.indexed_shape(base, node.slice), base.dtype, base.weak_type, traced)
            return Array(library="numpy") if not index.may_be_traced() or index is UNKNOWN else UNKNOWN
        if isinstance(base, TracedTree):
            return TracedTree(base.param, base.arrays_only)
        if isinstance(base, Seq) and isinstance(index, Const) and type(index.value) is int:
            try:
                return base.items[index.value]
            except IndexError:
                return UNKNOWN
        if isinstance(base, Seq) and isinstance(index, Static) and base.items:
            if all(_is_number(i) for i in base.items):
                return Static("int")
            return UNKNOWN
        if isinstance(base, Dict) and isinstance(index, Const) and index.value in base.keys:
            return base.values[base.keys.index(index.value)]
        if isinstance(base, Static) and base.kind == "tuple":
            return Static("int") if isinstance(index, Const | Static) else UNKNOWN
        return UNKNOWN

    def indexed_shape(self, base: Array, index: ast.expr) -> tuple[Dim, ...] | None:
        """The shape of ``base[index]`` by NumPy's indexing rules, when every size involved is known."""
        if base.shape is None or None in base.shape:
            return None
        parts: list[array_ops.IndexPart] = []
        for entry in index.elts if isinstance(index, ast.Tuple) else [index]:
            part = self.index_part(entry)
            if part is None:
                return None
            parts.append(part)
        return array_ops.index_shape(base.shape, parts)  # type: ignore[arg-type]

    def index_part(self, entry: ast.expr) -> array_ops.IndexPart | None:
        if isinstance(entry, ast.Slice):
            bounds = [None if b is None else self.values.get(id(b)) for b in (entry.lower, entry.upper, entry.step)]
            if any(b is not None and not (isinstance(b, Const) and type(b.value) is int) for b in bounds):
                return None
            ints = tuple(b.value if isinstance(b, Const) else None for b in bounds)
            return array_ops.IndexPart("slice", ints)  # type: ignore[arg-type]
        if isinstance(entry, ast.Constant) and entry.value is None:
            return array_ops.IndexPart("none")
        if isinstance(entry, ast.Constant) and entry.value is Ellipsis:
            return array_ops.IndexPart("ellipsis")
        value = self.values.get(id(entry), UNKNOWN)
        if (isinstance(value, Const) and type(value.value) is int) or value == Static("int"):
            return array_ops.IndexPart("int")
        if isinstance(value, Array) and value.dtype is not None and value.dtype.startswith(("int", "uint")):
            if value.shape == ():
                return array_ops.IndexPart("int")
            if value.shape is not None and None not in value.shape:
                return array_ops.IndexPart("array", shape=value.shape)  # type: ignore[arg-type]
        return None

    def e_slice(self, node: ast.Slice) -> Value:
        for part in (node.lower, node.upper, node.step):
            if part is not None:
                self.expr(part)
        return Static("slice")

    def e_tuple(self, node: ast.Tuple | ast.List) -> Value:
        items = tuple(self.expr(elt) for elt in node.elts)
        if any(isinstance(elt, ast.Starred) for elt in node.elts):
            return UNKNOWN
        return Seq(items, is_list=isinstance(node, ast.List))

    def e_dict(self, node: ast.Dict) -> Value:
        keys: list[object] = []
        values: list[Value] = []
        ok = True
        for key, value in zip(node.keys, node.values, strict=True):
            item = self.expr(value)
            if key is None:
                ok = False
                continue
            key_value = self.expr(key)
            if isinstance(key_value, Const):
                keys.append(key_value.value)
                values.append(item)
            else:
                ok = False
        return Dict(tuple(keys), tuple(values)) if ok else UNKNOWN

    def e_set(self, node: ast.Set) -> Value:
        for elt in node.elts:
            self.expr(elt)
        return Static("set")

    def e_joinedstr(self, node: ast.JoinedStr) -> Value:
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                self.expr(value.value)
                if value.format_spec is not None:
                    self.expr(value.format_spec)
        return Static("str")

    def e_lambda(self, node: ast.Lambda) -> Value:
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            self.expr(default)
        return FunctionRef(node)

    def e_namedexpr(self, node: ast.NamedExpr) -> Value:
        value = self.expr(node.value)
        self.bind(node.target, value)
        return value

    def e_starred(self, node: ast.Starred) -> Value:
        self.expr(node.value)
        return UNKNOWN

    def e_await(self, node: ast.Await) -> Value:
        self.expr(node.value)
        return UNKNOWN

    def e_comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> Value:
        saved = dict(self.env)
        unrolled: Value = UNKNOWN
        for number, generator in enumerate(node.generators):
            iterable = self.expr(generator.iter)
            if number == 0 and isinstance(node, ast.ListComp):
                unrolled = self.unrolled_list(node, iterable)
            self.bind(generator.target, self.element_of(iterable))
            for condition in generator.ifs:
                self.expr(condition)
        # Evaluated once more with the joined element, so what rules read inside the comprehension
        # holds for every item, not only the last one unrolled.
        if isinstance(node, ast.DictComp):
            self.expr(node.key)
            self.expr(node.value)
        else:
            self.expr(node.elt)
        self.env = saved
        return unrolled

    def unrolled_list(self, node: ast.ListComp, iterable: Value) -> Value:
        """``[f(x) for x in (a, b, c)]`` over a short sequence of known items: the list of each ``f(x)``."""
        (generator, *more) = node.generators
        if more or generator.ifs or generator.is_async or not isinstance(generator.target, ast.Name):
            return UNKNOWN
        if not isinstance(iterable, Seq) or not 0 < len(iterable.items) <= _MAX_UNROLLED_ITEMS:
            return UNKNOWN
        items = []
        for item in iterable.items:
            self.bind(generator.target, item)
            items.append(self.expr(node.elt))
        return Seq(tuple(items), is_list=True)

    def e_ifexp(self, node: ast.IfExp) -> Value:
        self.expr(node.test)
        return join(self.expr(node.body), self.expr(node.orelse))

    def e_boolop(self, node: ast.BoolOp) -> Value:
        values = [self.expr(v) for v in node.values]
        if all(v.is_traced_array() for v in values):
            return Array((), None, False, True)
        if all(isinstance(v, Const | Static) for v in values):
            return Static()
        return UNKNOWN

    def e_unaryop(self, node: ast.UnaryOp) -> Value:
        operand = self.expr(node.operand)
        if isinstance(node.op, ast.Not):
            if operand.is_traced_array():
                return Array((), "bool", False, True)
            return Static("bool") if isinstance(operand, Const | Static) else UNKNOWN
        if isinstance(operand, Const) and isinstance(operand.value, int | float | complex):
            try:
                return Const(_UNARY[type(node.op)](operand.value))
            except (TypeError, KeyError):
                return Static()
        if isinstance(operand, Array):
            return operand
        if isinstance(operand, TracedTree) and not operand.arrays_only:
            return Array(traced=True)
        if isinstance(operand, Static):
            return operand
        return UNKNOWN

    def binop(self, op: ast.operator, left: Value, right: Value) -> Value:
        # nnx Variables take part in arithmetic as the arrays they hold.
        left = left.inner if isinstance(left, VariableBox) else left
        right = right.inner if isinstance(right, VariableBox) else right
        if isinstance(left, Const) and isinstance(right, Const):
            return self.fold(op, left.value, right.value)
        traced = left.is_traced_array() or right.is_traced_array()
        if isinstance(op, ast.MatMult) and isinstance(left, Array) and isinstance(right, Array):
            return self.matmul(left, right, traced)
        if traced and not (isinstance(left, Const) and isinstance(left.value, str)):
            shape = self.broadcast(left, right)
            dtype, weak = _arithmetic_dtype(op, left, right)
            return Array(shape, dtype, weak, True)
        for one, other in ((left, right), (right, left)):
            if isinstance(one, TracedTree) and not one.arrays_only:
                return self.traced_tree_binop(op, other)
        if isinstance(left, Array) or isinstance(right, Array):
            arrays = [v for v in (left, right) if isinstance(v, Array)]
            others = [v for v in (left, right) if not isinstance(v, Array)]
            if all(_is_number(v) for v in others):
                library = "jax" if any(a.library == "jax" for a in arrays) else "numpy"
                dtype, weak = _arithmetic_dtype(op, left, right) if library == "jax" else (None, False)
                return Array(
                    self.broadcast(left, right),
                    dtype,
                    weak,
                    self.staged and library == "jax",
                    library,
                )
            return UNKNOWN
        if isinstance(left, Const | Static) and isinstance(right, Const | Static):
            kinds = {v.kind if isinstance(v, Static) else type(v.value).__name__ for v in (left, right)}
            return Static(kinds.pop() if len(kinds) == 1 else None)
        if isinstance(left, Seq) and isinstance(right, Seq) and isinstance(op, ast.Add):
            return Seq(left.items + right.items, left.is_list)
        return UNKNOWN

    @staticmethod
    def take_along_axis(args: list[Value], keywords: dict[str, Value], traced: bool) -> Value:
        """``jnp.take_along_axis(array, indices, axis)``: the array's dtype, the indices' extent on ``axis``."""
        array, indices = args[0], args[1]
        assert isinstance(array, Array)
        axis = args[2] if len(args) > 2 else keywords.get("axis")
        shape = None
        known = isinstance(indices, Array) and indices.shape is not None and array.shape is not None
        if known and isinstance(axis, Const) and type(axis.value) is int:
            sizes = (*array.shape, *indices.shape)  # type: ignore[union-attr, misc]
            if None not in sizes:
                shape = array_ops.take_along_axis_shape(array.shape, indices.shape, axis.value)  # type: ignore[arg-type, union-attr]
        return Array(shape, array.dtype, False, traced)

    def matmul(self, left: Array, right: Array, traced: bool) -> Value:
        """``left @ right``: NumPy's matmul shape rules, the operands' promoted dtype."""
        shape: tuple[Dim, ...] | None = None
        if left.shape is not None and right.shape is not None and None not in (*left.shape, *right.shape):
            shape = array_ops.matmul_shape(left.shape, right.shape)  # type: ignore[arg-type]
        dtype = None
        if left.dtype is not None and right.dtype is not None:
            try:
                dtype = dtypes.result_type((left.dtype, False), (right.dtype, False))[0]
            except ValueError:
                dtype = None
        jax_side = "jax" in (left.library, right.library)
        return Array(shape, dtype, False, traced or (self.staged and jax_side), "jax" if jax_side else "numpy")

    @staticmethod
    def traced_tree_binop(op: ast.operator, other: Value) -> Value:
        """Arithmetic on a traced argument of unknown structure.

        Only array leaves support arithmetic with numbers and arrays. Two containers can still
        be merged (``|`` on dicts) and a tuple can be extended with a tuple, so those stay
        unknown.
        """
        if isinstance(op, ast.BitOr | ast.BitAnd | ast.BitXor) and isinstance(other, TracedTree | Dict):
            return UNKNOWN
        if isinstance(op, ast.Add | ast.Mult) and isinstance(other, Seq):
            return UNKNOWN
        if isinstance(other, Const) and not _is_number(other):
            return UNKNOWN
        return Array(traced=True)

    @staticmethod
    def broadcast(left: Value, right: Value) -> tuple[int | None, ...] | None:
        shapes = []
        for value in (left, right):
            if isinstance(value, Array):
                if value.shape is None:
                    return None
                shapes.append(value.shape)
            elif _is_number(value):
                shapes.append(())
            else:
                return None
        a, b = shapes
        rank = max(len(a), len(b))
        a = (1,) * (rank - len(a)) + tuple(a)
        b = (1,) * (rank - len(b)) + tuple(b)
        out: list[int | None] = []
        for x, y in zip(a, b, strict=True):
            if x == 1:
                out.append(y)
            elif y == 1 or x == y:
                out.append(x)
            else:
                out.append(None)
        return tuple(out)

    @staticmethod
    def fold(op: ast.operator, a: object, b: object) -> Value:
        function = _BINARY.get(type(op))
        if function is None:
            return Static()
        numeric = (int, float, complex)
        if not (isinstance(a, numeric) and isinstance(b, numeric)):
            if isinstance(a, str) and isinstance(b, str) and isinstance(op, ast.Add):
                return Const(a + b)
            return Static()
        if isinstance(op, ast.Pow | ast.LShift) and isinstance(b, int | float) and abs(b) > 64:
            return Static(type(a).__name__)
        try:
            result = function(a, b)
        except (ArithmeticError, ValueError, TypeError):
            return Static()
        if isinstance(result, int) and abs(result) > _MAX_CONST_FOLD * _MAX_CONST_FOLD:
            return Static("int")
        return Const(result)

    def e_binop(self, node: ast.BinOp) -> Value:
        left = self.expr(node.left)
        right = self.expr(node.right)
        return self.binop(node.op, left, right)

    def e_compare(self, node: ast.Compare) -> Value:
        operands = [self.expr(node.left), *(self.expr(c) for c in node.comparators)]
        results = [self.compare(op, a, b) for op, a, b in zip(node.ops, operands, operands[1:], strict=False)]
        if len(results) == 1:
            return results[0]
        if any(r.is_traced_array() for r in results):
            return Array((), "bool", False, True)
        return Static("bool") if all(isinstance(r, Static) for r in results) else UNKNOWN

    def compare(self, op: ast.cmpop, left: Value, right: Value) -> Value:
        if isinstance(op, ast.Is | ast.IsNot):
            return Static("bool")
        if isinstance(op, ast.In | ast.NotIn):
            return Static("bool") if not (left.may_be_traced() or right.may_be_traced()) else UNKNOWN
        if any(isinstance(v, Const) and (v.value is None or isinstance(v.value, str)) for v in (left, right)):
            return UNKNOWN if left.may_be_traced() or right.may_be_traced() else Static("bool")
        if left.is_traced_array() or right.is_traced_array():
            return Array(self.broadcast(left, right), "bool", False, True)
        if isinstance(op, ast.Eq | ast.NotEq):
            if isinstance(left, Const | Static) and isinstance(right, Const | Static):
                return Static("bool")
            return UNKNOWN
        for one, other in ((left, right), (right, left)):
            if (
                isinstance(one, TracedTree)
                and not one.arrays_only
                and (_is_arrayish(other) or isinstance(other, TracedTree))
            ):
                return Array(None, "bool", False, True)
        if isinstance(left, Const | Static) and isinstance(right, Const | Static):
            return Static("bool")
        if isinstance(left, Array) or isinstance(right, Array):
            library = "jax" if any(isinstance(v, Array) and v.library == "jax" for v in (left, right)) else "numpy"
            return Array(
                self.broadcast(left, right),
                "bool",
                False,
                self.staged and library == "jax",
                library,
            )
        return UNKNOWN

    # -- calls ----------------------------------------------------------------------------------

    def e_call(self, node: ast.Call) -> Value:
        callee = self.expr(node.func)
        args = [self.expr(a) for a in node.args]
        keywords: dict[str, Value] = {}
        for keyword in node.keywords:
            value = self.expr(keyword.value)
            if keyword.arg is not None:
                keywords[keyword.arg] = value
        if isinstance(callee, ModuleRef):
            return self.call_api(callee.qualname, node, args, keywords)
        starred = any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords)
        if isinstance(callee, FunctionRef | Transformed):
            if starred:
                return UNKNOWN
            if self.records_calls:
                self.record_call(node, callee)
            return self.call_function(callee, args, keywords)
        if isinstance(callee, ClassRef):
            return UNKNOWN if starred else self.construct(callee.node, args, keywords)
        if isinstance(callee, LibraryObject):
            return Array(traced=self.staged or callee.traced or self.any_traced(args, keywords))
        if isinstance(callee, Instance) and not starred:
            method = class_model(self.index, callee.node).method("__call__")
            if method is None:
                return UNKNOWN
            if self.records_calls:
                self.record_call(node, FunctionRef(method, 1, callee), receiver=node.func)
            return self.interpreter.call_result(method, args, keywords, 1, self.staged, callee)
        if isinstance(node.func, ast.Attribute):
            receiver = self.values.get(id(node.func.value), UNKNOWN)
            if isinstance(receiver, LibraryObject) and receiver.callbacks and not starred:
                return self.call_callbacks(node, receiver, args, keywords)
            modelled = receiver.call_method(node.func.attr, args, keywords, node)
            if modelled is not None:
                return modelled
            return self.call_method(receiver, node.func.attr, args, keywords)
        if isinstance(callee, TracedTree) and self.staged:
            return TracedTree(callee.param, callee.arrays_only)
        return UNKNOWN

    def call_callbacks(
        self, node: ast.Call, holder: LibraryObject, args: list[Value], keywords: dict[str, Value]
    ) -> Value:
        """``tx.update(...)`` of a library object that keeps the module's functions: each one it runs sees
        these arguments (the calls are recorded, so a traced caller traces them)."""
        assert isinstance(node.func, ast.Attribute)
        functions = [f for method, f in holder.callbacks if method == node.func.attr]
        arguments = {k.arg: k.value for k in node.keywords if k.arg is not None}
        for function in functions:
            if self.records_calls and isinstance(function, FunctionRef):
                site = CallSite(node, self.scope, function.node, tuple(node.args), arguments, function.bound)
                self.interpreter.record_call(site)
        if len(functions) == 1 and isinstance(functions[0], FunctionRef | Transformed):
            return self.call_function(functions[0], args, keywords)
        return UNKNOWN

    def record_call(self, node: ast.Call, callee: FunctionRef | Transformed, receiver: ast.expr | None = None) -> None:
        """Tell the interpreter which of the module's functions this call runs, and on what."""
        wrapper: str | None = None
        target: Value = callee
        func: ast.expr = node.func
        args: tuple[ast.expr, ...] = tuple(node.args)
        keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
        while isinstance(target, Transformed):
            wrapper = wrapper or target.transform
            if target.transform in LINEN_METHODS:
                # module.apply(variables, *args): __call__ sees the arguments after the variables.
                args, receiver = args[1:], func.value if isinstance(func, ast.Attribute) else None
                keywords = {k: v for k, v in keywords.items() if k not in ("rngs", "mutable")}
            target = target.function
            func = func.args[0] if isinstance(func, ast.Call) and func.args else func
        if isinstance(target, Instance):
            method = class_model(self.index, target.node).method("__call__")
            if method is None:
                return
            target, receiver = FunctionRef(method, 1, target), func
        if not isinstance(target, FunctionRef):
            return
        if receiver is None and target.bound == 1 and isinstance(func, ast.Attribute):
            receiver = func.value
        self.interpreter.record_call(
            CallSite(node, self.scope, target.node, args, keywords, target.bound, wrapper, receiver)
        )

    def tree_map(self, node: ast.Call, function: Value, tree: Value, rest: Sequence[Value]) -> Value:
        """``jax.tree.map(function, tree, *rest)`` leaf by leaf, when the trees' structures are known."""
        if isinstance(tree, Array):
            leaves = [tree, *rest]
            if isinstance(function, FunctionRef | Transformed):
                return self.call_function(function, leaves, {})
            if isinstance(function, ModuleRef):
                return self.call_api(function.qualname, node, leaves, {})
            return UNKNOWN
        if isinstance(tree, Dict):
            parts = [_children(other, tree) for other in rest]
            if any(part is None for part in parts):
                return UNKNOWN
            return Dict(
                tree.keys,
                tuple(
                    self.tree_map(node, function, value, [part[i] for part in parts])  # type: ignore[index]
                    for i, value in enumerate(tree.values)
                ),
            )
        if isinstance(tree, Seq):
            parts = [_children(other, tree) for other in rest]
            if any(part is None for part in parts):
                return UNKNOWN
            return Seq(
                tuple(
                    self.tree_map(node, function, value, [part[i] for part in parts])  # type: ignore[index]
                    for i, value in enumerate(tree.items)
                ),
                tree.is_list,
            )
        if isinstance(tree, TracedTree):
            return TracedTree(tree.param, tree.arrays_only)
        return UNKNOWN

    def construct(self, node: ast.ClassDef, args: list[Value], keywords: dict[str, Value]) -> Value:
        """An object of one of the module's classes; a dataclass-like one keeps the values of its fields."""
        model = class_model(self.index, node)
        lifetime = "trace" if self.staged or self.context is not None else "outer"
        if not model.dataclass_like:
            return instance(node, lifetime=lifetime)
        names = model.field_names
        if len(args) > len(names) or any(key not in names for key in keywords):
            return instance(node, lifetime=lifetime)
        given = {**dict(zip(names, args, strict=False)), **keywords}
        fields: list[tuple[str, Value]] = []
        for name, default in model.fields:
            if name in given:
                fields.append((name, given[name]))
            elif default is None:
                fields.append((name, UNKNOWN))
            elif id(default) in self.values:
                fields.append((name, self.values[id(default)]))  # the class statement ran in this body
            else:
                fields.append((name, self.interpreter.value_of(default, model.outer)))
        return instance(node, tuple(fields), lifetime=lifetime)

    def replaced(self, obj: Instance, changes: Mapping[str, Value]) -> Value:
        """``dataclasses.replace(obj, **changes)``: a new object of the same class with those fields changed."""
        if obj.fields is None or changes.keys() - {name for name, _ in obj.fields}:
            return instance(obj.node, lifetime="trace" if self.staged else "outer")
        fields = tuple((name, changes.get(name, value)) for name, value in obj.fields)
        return instance(obj.node, fields, obj.traced, obj.arrays_only, "trace" if self.staged else "outer")

    def instance_attribute(self, obj: Instance, attr: str) -> Value:
        """``obj.attr``: a bound method, a field's value, or what the class's methods assign to ``self.attr``."""
        model = class_model(self.index, obj.node)
        method = model.method(attr)
        if method is not None:
            names = {_decorator_name(d) for d in method.decorator_list}
            if "property" in names:
                return self.interpreter.call_result(method, [], {}, 1, self.staged, obj)
            if "staticmethod" in names:
                return FunctionRef(method)
            if "classmethod" in names:
                return UNKNOWN
            return self.decorated(method, FunctionRef(method, 1, obj))
        if attr in ("apply", "init") and model.kind == "linen":
            # Both run __call__ on the arguments after the first (the variables, or the PRNG keys).
            call = model.method("__call__")
            method = LINEN_APPLY if attr == "apply" else LINEN_INIT
            return Transformed(method, FunctionRef(call, 1, obj)) if call is not None else UNKNOWN
        value = obj.field_value(attr)
        if value is None:
            value = self.interpreter.attribute_value(model, attr)
        if not obj.traced or not model.pytree or attr in model.static_fields:
            return value
        # Equinox fields and nnx attributes that are not arrays (sizes, flags) stay static under the trace.
        arrays_only = obj.arrays_only or model.kind in ("equinox", "nnx")
        return _arrays_traced(value, attr) if arrays_only else traced_copy(value, attr)

    def call_function(self, callee: FunctionRef | Transformed, args: list[Value], keywords: dict[str, Value]) -> Value:
        """What calling one of the module's functions, possibly through a transform, returns here."""
        if isinstance(callee, FunctionRef):
            return self.interpreter.call_result(callee.node, args, keywords, callee.bound, self.staged, callee.receiver)
        kind = CALL_KINDS[callee.transform]
        inner = callee.function
        if isinstance(inner, Instance):
            method = class_model(self.index, inner.node).method("__call__")
            inner = FunctionRef(method, 1, inner) if method is not None else UNKNOWN
        if not isinstance(inner, FunctionRef | Transformed):
            return UNKNOWN
        if kind in ("apply", "init"):
            if not args or keywords.keys() - {"rngs", "mutable"}:
                return UNKNOWN
            out = self.call_traced(inner, args[1:], {}) if self.staged else self.call_function(inner, args[1:], {})
            if kind == "init":
                return UNKNOWN  # the variables: their structure follows the module's parameters
            return Seq((out, UNKNOWN)) if "mutable" in keywords else out
        if kind == "map":
            mapped = vmapped_arguments(callee, args, keywords)
            if mapped is None:
                return UNKNOWN  # vmap raises: one in_axes entry per positional argument
            sliced, mapped_keywords = mapped
            out = self.call_traced(inner, sliced, mapped_keywords)
            axes = callee.option("in_axes", 0)
            if axes == UNKNOWN_OPTION:
                batch = None
            else:
                batch = _batch_size(args, axes if isinstance(axes, tuple) else (axes,) * len(args))
            stacked = _stacked(out, batch)
            # Elsewhere than in front, the batch axis moves the output's axes: only the structure is known.
            return stacked if callee.option("out_axes", 0) == 0 else _leafwise(stacked, False, True)
        traced_args = (
            [traced_copy(a) for a in args] if kind == "same" and callee.transform != "jax.named_call" else args
        )
        out = self.call_traced(inner, traced_args, keywords)
        if kind == "same":
            return out if self.staged else concrete_copy(out)
        argnums = callee.option("argnums", 0)
        if not isinstance(argnums, int) or not 0 <= argnums < len(args) or callee.option("has_aux") == UNKNOWN_OPTION:
            return UNKNOWN
        # A gradient is a tracer when the caller is traced or any input is (a vmapped example, say).
        grads = _gradient_like(args[argnums], self.staged or self.any_traced(args, keywords))
        if kind == "grad":
            return Seq((grads, UNKNOWN)) if callee.option("has_aux") is True else grads
        if kind == "value_and_grad":
            value = out
            if callee.option("has_aux") is True:
                value = (
                    Seq((value.items[0], value.items[1]))
                    if isinstance(value, Seq) and len(value.items) == 2
                    else Seq((UNKNOWN, UNKNOWN))
                )
            return Seq((value if self.staged else concrete_copy(value), grads))
        return UNKNOWN

    def call_traced(self, callee: FunctionRef | Transformed, args: list[Value], keywords: dict[str, Value]) -> Value:
        """``callee`` called on ``args`` while a transform traces it (its arrays are tracers there)."""
        if isinstance(callee, Transformed):
            return self.call_function(callee, args, keywords)
        return self.interpreter.call_result(callee.node, args, keywords, callee.bound, True, callee.receiver)

    def any_traced(self, args: list[Value], keywords: dict[str, Value]) -> bool:
        return any(v.may_be_traced() and v is not UNKNOWN for v in [*args, *keywords.values()])

    def dtype_argument(self, node: ast.Call, position: int | None) -> str | None:
        expr = next((k.value for k in node.keywords if k.arg == "dtype"), None)
        if expr is None and position is not None and len(node.args) > position:
            expr = node.args[position]
        if expr is None:
            return None
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return arrays.dtype_name(expr.value)
        return arrays.dtype_name(self.index.qualname(expr, self.scope))

    def call_api(self, qualname: str, node: ast.Call, args: list[Value], keywords: dict[str, Value]) -> Value:
        if qualname.startswith("builtins."):
            return self.call_builtin(qualname[9:], args)
        if qualname in _MATH_FUNCTIONS and args and all(_is_number(a) and isinstance(a, Const) for a in args):
            return _fold_math(qualname, [a.value for a in args])  # type: ignore[union-attr]
        if qualname in CALL_KINDS and args and isinstance(args[0], FunctionRef | Transformed | Instance):
            options = _literal_options(node.keywords)
            if CALL_KINDS[qualname] == "map":
                positional = qualname == "jax.vmap"
                given = keywords.get("in_axes", args[1] if positional and len(args) > 1 else Const(0))
                out_axes = keywords.get("out_axes", args[2] if positional and len(args) > 2 else Const(0))
                # `**options` or `*axes` may set them.
                hidden = any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args)
                options += _map_axes_options(given, out_axes, hidden)
            return Transformed(qualname, args[0], options)
        if qualname == "functools.partial" and args and isinstance(args[0], FunctionRef):
            return UNKNOWN
        kept = callback_holders.holder(qualname)
        if kept is not None:
            return _holder_object(kept, args, keywords)
        if qualname == "dataclasses.replace" and len(args) == 1 and isinstance(args[0], Instance):
            return self.replaced(args[0], keywords)
        if qualname in arrays.NNX_VARIABLES:
            return VariableBox(qualname, args[0] if args else keywords.get("value", UNKNOWN))
        if self.interpreter.call_evaluators:
            call = ApiCall(qualname, node, args, keywords, self.values)
            for evaluate in self.interpreter.call_evaluators:
                value = evaluate(call)
                if value is not None:
                    return value
        traced_inputs = self.any_traced(args, keywords)
        if qualname in arrays.ARRAY_RESULT_FUNCTIONS:
            return Array(traced=self.staged or traced_inputs)
        if qualname in arrays.LAYERS:
            return LibraryObject(qualname)
        if qualname in arrays.TREE_MAPS and len(args) >= 2 and not keywords:
            return self.tree_map(node, args[0], args[1], args[2:])
        if qualname in arrays.TREE_LEAVES and len(args) == 1:
            leaves = _leaves(args[0])
            return Seq(tuple(leaves), is_list=True) if leaves is not None else UNKNOWN
        if qualname.startswith("jax.numpy."):
            name = qualname[10:]
            if "." in name:
                if name == "linalg.norm":
                    tabled = self.tabled_function(name, args, keywords, self.staged or traced_inputs)
                    if tabled is not None:
                        return tabled
                if name.split(".", 1)[0] in ("linalg", "fft"):
                    return Array(traced=self.staged or traced_inputs)
                return UNKNOWN
            if name in arrays.STATIC_RESULT_FUNCTIONS:
                return Static()
            if name in dtypes.PROMOTABLE_DTYPES and len(args) == 1 and not keywords:
                # jnp.int32(1), jnp.float32(x): a strongly typed array of the argument's shape.
                source = args[0]
                shape = source.shape if isinstance(source, Array) else () if isinstance(source, Const) else None
                return Array(shape, name, False, self.staged or traced_inputs)
            if name in _BINARY_FUNCTIONS and len(args) == 2 and not keywords:
                result = self.binop(_BINARY_FUNCTIONS[name], args[0], args[1])
                if isinstance(result, Const | Static) and all(_is_number(a) for a in args):
                    # jnp.add(1, 1) is a (weakly typed) array, staged out under a trace, not a Python number.
                    dtype, weak = _arithmetic_dtype(_BINARY_FUNCTIONS[name], args[0], args[1])
                    return Array((), dtype, weak, self.staged)
                return result
            if name in arrays.CONSTRUCTORS:
                return array_constructors.evaluate_constructor(
                    name,
                    args,
                    keywords,
                    self.dtype_argument(node, arrays.DTYPE_POSITIONS.get(name)),
                    self.staged or traced_inputs,
                )
            if name in (
                "nonzero",
                "where",
                "unique",
                "argwhere",
                "split",
                "array_split",
                "meshgrid",
            ):
                if name == "where" and len(args) == 3:
                    return Array(traced=self.staged or traced_inputs)
                return UNKNOWN
            if name == "bincount" and args:
                return self.bincount(args, keywords, self.staged or traced_inputs)
            tabled = self.tabled_function(name, args, keywords, self.staged or traced_inputs)
            if tabled is not None:
                return tabled
            if name == "dot" and len(args) == 2 and not keywords and all(_rank_at_most(a, 2) for a in args):
                # On vectors and matrices `dot` is `@` (a scalar operand is not: left to the table).
                return self.binop(ast.MatMult(), args[0], args[1])
            if name in array_ops.JOINING_FUNCTIONS:
                return self.joined(name, args, keywords, self.staged or traced_inputs)
            if name == "take_along_axis" and len(args) >= 2 and isinstance(args[0], Array):
                return self.take_along_axis(args, keywords, self.staged or traced_inputs)
            dtype = "bool" if name in arrays.BOOL_RESULT_FUNCTIONS else None
            return Array(None, dtype, False, self.staged or traced_inputs)
        if qualname.startswith("jax.random.") and qualname[11:] in randomness.SAMPLER_SHAPES:
            shape_at, dtype_at, default = randomness.SAMPLER_SHAPES[qualname[11:]]
            shape = keywords.get("shape", args[shape_at] if len(args) > shape_at else None)
            if shape is not None and not any(isinstance(a, ast.Starred) for a in node.args):
                dims = array_constructors.shape_of(shape)
                dtype = self.dtype_argument(node, dtype_at) if dtype_at is not None else None
                if dims is not None:
                    return Array(dims, dtype or default, False, self.staged or traced_inputs)
        if qualname.startswith("jax.nn.") and qualname.count(".") == 2:
            tabled = self.tabled_function(qualname[7:], args, keywords, self.staged or traced_inputs)
            if tabled is not None:
                return tabled
        if qualname.startswith(_ARRAY_NAMESPACES):
            if qualname.startswith("jax.lax.") and qualname[8:] in arrays.STATIC_RESULT_LAX:
                return Static("int")
            if qualname == "jax.lax.psum" and args and isinstance(args[0], Const) and type(args[0].value) is int:
                # psum of a Python int is computed at trace time: psum(1, axis) is the axis size.
                return Static("int")
            if qualname.startswith("jax.lax.") and qualname[8:] in arrays.TREE_PRESERVING_LAX and args:
                keep = qualname[8:] in arrays.SHAPE_PRESERVING_LAX
                return _leafwise(args[0], keep, self.staged or traced_inputs)
            if qualname.startswith("jax.lax.") and qualname[8:] in arrays.TREE_RESULT_LAX:
                return TracedTree("<lax>") if self.staged or traced_inputs else UNKNOWN
            if qualname.count(".") != 2:
                return UNKNOWN
            return Array(traced=self.staged or traced_inputs)
        if qualname == "jax.device_get" and len(args) == 1:
            return _host_view(args[0])
        if qualname.startswith("numpy."):
            name = qualname[6:]
            if name in ("asarray", "array") and args and isinstance(args[0], Array) and args[0].library != "numpy":
                view = self.numpy_view(node, name, args[0], keywords)
                if view is not None:
                    return view
            if name in arrays.CONSTRUCTORS and not traced_inputs:
                value = array_constructors.evaluate_constructor(
                    name, args, keywords, self.dtype_argument(node, None), False
                )
                return Array(value.shape, None, False, False, "numpy") if isinstance(value, Array) else UNKNOWN
            if name in numpy_equivalents.METHOD_DELEGATING_FUNCTIONS and args and args[0].is_traced_array():
                # np.mean(x) calls x.mean(): on a tracer the result is a tracer, not a NumPy array.
                tabled = self.tabled_function(name, args[:1], keywords, True)
                return tabled if tabled is not None else Array(traced=True)
            return UNKNOWN
        return UNKNOWN

    @staticmethod
    def joined(name: str, args: list[Value], keywords: dict[str, Value], traced: bool) -> Value:
        """``jnp.concatenate([a, b], axis)``, ``stack``, ``append(a, b)``, ``vstack``, ``hstack`` of known shapes."""
        if name == "append":
            parts: list[Value] = list(args[:2])
            axis_value = keywords.get("axis", args[2] if len(args) > 2 else Const(None))
        else:
            parts = list(args[0].items) if args and isinstance(args[0], Seq) else []
            axis_value = keywords.get("axis", args[1] if len(args) > 1 else Const(0))
        shapes: list[tuple[int, ...]] = []
        dtypes_seen: set[str | None] = set()
        for part in parts:
            if isinstance(part, Const) and _is_number(part):
                shapes.append(())
                continue
            if not isinstance(part, Array) or part.shape is None or not all(type(d) is int for d in part.shape):
                return Array(None, None, False, traced)
            shapes.append(part.shape)  # type: ignore[arg-type]
            dtypes_seen.add(part.dtype)
        axis = axis_value.value if isinstance(axis_value, Const) else "?"
        if len(parts) < (2 if name == "append" else 1) or not (axis is None or type(axis) is int):
            return Array(None, None, False, traced)
        dtype = dtypes_seen.pop() if len(dtypes_seen) == 1 else None
        return Array(array_ops.joining_shape(name, shapes, axis), dtype, False, traced)  # type: ignore[arg-type]

    @staticmethod
    def tabled_function(name: str, args: list[Value], keywords: dict[str, Value], traced: bool) -> Value | None:
        """An elementwise function or reduction of one array, typed by the shared shape and dtype table."""
        if len(args) != 1 or keywords.keys() - {"axis", "keepdims"}:
            return None
        axis, keepdims = keywords.get("axis", Const(None)), keywords.get("keepdims", Const(False))
        if not (isinstance(axis, Const) and (axis.value is None or type(axis.value) is int)):
            return None
        if not (isinstance(keepdims, Const) and type(keepdims.value) is bool):
            return None
        operand = _array_type(args[0])
        if operand is None:
            return None
        found = array_ops.function_result(name, [operand], axis.value, keepdims.value)
        if found is None:
            return None
        library = args[0].library if isinstance(args[0], Array) else "jax"
        return Array(found.shape, found.dtype, found.weak, traced or args[0].is_traced_array(), library)

    def bincount(self, args: list[Value], keywords: dict[str, Value], traced: bool) -> Value:
        """``jnp.bincount(x, weights=None, minlength=0, *, length=None)``: its counts' dtype, and their
        number when ``length`` gives it."""
        length = keywords.get("length")
        bins = length.value if isinstance(length, Const) and type(length.value) is int and length.value >= 0 else None
        weights = args[1] if len(args) > 1 else keywords.get("weights")
        if weights is None or (isinstance(weights, Const) and weights.value is None):
            weights_type = None
        else:
            weights_type = _array_type(weights)
            if weights_type is None:
                return Array((bins,) if bins is not None else None, None, False, traced)
        found = array_ops.bincount_result(bins, weights_type)
        return Array(found.shape, found.dtype, False, traced or any(a.is_traced_array() for a in args))

    def numpy_view(self, node: ast.Call, name: str, source: Array, keywords: dict[str, Value]) -> Value | None:
        """``np.asarray(x)`` (or ``np.array(x, copy=False)``) of a concrete JAX array: a read-only view of its
        buffer, unless a different dtype forces a copy. ``None`` when it is a copy or may be one."""
        copy = keywords.get("copy")
        if source.library == HOST_VIEW and name == "array" and not (isinstance(copy, Const) and copy.value is False):
            return None
        if source.traced or (name == "array" and not (isinstance(copy, Const) and copy.value is False)):
            return None
        if self.index.qualname(node.func, self.scope) != f"numpy.{name}":
            # Called through another function (``jax.tree.map(np.asarray, tree)``): no dtype is given.
            return Array(source.shape, source.dtype, False, False, HOST_VIEW)
        given = next((k.value for k in node.keywords if k.arg == "dtype"), None) or (node.args[1:2] or [None])[0]
        if given is not None:
            # NumPy's own dtype, not JAX's 32-bit view of it: np.float64 asks for a copy in float64.
            spelled = given.value if isinstance(given, ast.Constant) else self.index.qualname(given, self.scope)
            dtype = dtypes.long_name(str(spelled).rsplit(".", 1)[-1]) if spelled is not None else None
            if dtype is None or dtype != source.dtype:
                return None
        return Array(source.shape, source.dtype, False, False, HOST_VIEW)

    def call_builtin(self, name: str, args: list[Value]) -> Value:
        if name == "len":
            if args and isinstance(args[0], Seq):
                return Const(len(args[0].items))
            return Static("int")
        if name == "isinstance" and len(args) == 2:
            known = _array_isinstance(args[0], args[1])
            if known is not None:
                return Const(known)
        if name in ("isinstance", "hasattr", "callable", "issubclass", "id", "type", "repr"):
            return Static()
        if name == "range":
            return Static("range")
        if name in ("int", "float", "bool", "complex", "str"):
            if args and isinstance(args[0], Const):
                try:
                    return Const(getattr(builtins, name)(args[0].value))
                except (TypeError, ValueError, OverflowError):
                    return Static(name)
            return Static(name)
        if name in ("min", "max", "abs", "round") and args and all(_is_number(a) for a in args):
            if all(isinstance(a, Const) for a in args):
                try:
                    return Const(getattr(builtins, name)(*(a.value for a in args)))  # type: ignore[union-attr]
                except (TypeError, ValueError, OverflowError):
                    return UNKNOWN
            return Static("float" if any(_kind(a) == "float" for a in args) else "int")
        if name in ("tuple", "list") and args and isinstance(args[0], Seq):
            return Seq(args[0].items, is_list=name == "list")
        if name == "print":
            return Const(None)
        return UNKNOWN

    def call_method(self, receiver: Value, method: str, args: list[Value], keywords: dict[str, Value]) -> Value:
        if isinstance(receiver, AtRef):
            base = receiver.base
            if method == "get":
                return Array(traced=base.may_be_traced() or self.staged)
            if isinstance(base, Array):
                traced = base.traced or self.any_traced(args, keywords)
                return Array(base.shape, base.dtype, base.weak_type, traced, "jax")
            return Array(traced=True)
        if isinstance(receiver, Array):
            if method in ("item", "tolist"):
                return Static()
            if receiver.library != "jax":
                return Array(library="numpy") if method in arrays.ARRAY_METHODS else UNKNOWN
            if method in arrays.ARRAY_METHODS:
                traced = receiver.traced or self.any_traced(args, keywords)
                if method == "astype" and args:
                    spelled = args[0]
                    name = spelled.qualname if isinstance(spelled, ModuleRef) else None
                    if isinstance(spelled, Const) and isinstance(spelled.value, str):
                        name = spelled.value
                    return Array(receiver.shape, arrays.dtype_name(name), False, traced)
                if method == "block_until_ready":
                    return receiver
                if method == "reshape" and not keywords:
                    return Array(_reshaped(receiver.shape, args), receiver.dtype, receiver.weak_type, traced)
                if method in array_ops.REDUCTIONS and not args:
                    tabled = self.tabled_function(method, [receiver], keywords, traced)
                    if tabled is not None:
                        return tabled
                axes = [a.value for a in args if isinstance(a, Const) and type(a.value) is int]
                if method == "swapaxes" and len(axes) == 2 == len(args) and receiver.shape is not None:
                    shape = array_ops.swapped_shape(receiver.shape, axes[0], axes[1])
                    return Array(shape, receiver.dtype, receiver.weak_type, traced)
                return Array(None, None, False, traced)
            return UNKNOWN
        if isinstance(receiver, TracedTree):
            if method in ("item", "tolist"):
                return Static()
            if method in arrays.ARRAY_METHODS:
                return Array(traced=True)
        linen_param = method == "param" and len(args) >= 3 and isinstance(receiver, Instance)
        if linen_param and class_model(self.index, receiver.node).kind == "linen":  # type: ignore[union-attr]
            # `self.param(name, init_fn, shape)`: the initializers' arrays are float32 by default.
            shape = array_constructors.shape_of(args[2])
            dtype = "float32" if len(args) == 3 else None
            return Array(shape, dtype, False, self.staged or receiver.traced)  # type: ignore[union-attr]
        if isinstance(receiver, Dict) and not args and not keywords:
            # Iterating a dict's views: each key, value or (key, value) pair.
            if method == "items":
                pairs = (Seq((Const(k), v)) for k, v in zip(receiver.keys, receiver.values, strict=True))
                return Seq(tuple(pairs), is_list=True)
            if method == "values":
                return Seq(receiver.values, is_list=True)
            if method == "keys":
                return Seq(tuple(Const(k) for k in receiver.keys), is_list=True)
        if isinstance(receiver, Instance) and method == "_replace" and receiver.fields is not None and not args:
            # NamedTuple._replace: the same kind of object with some fields swapped.
            if class_model(self.index, receiver.node).kind != "namedtuple" or keywords.keys() - dict(receiver.fields):
                return UNKNOWN
            fields = tuple((name, keywords.get(name, value)) for name, value in receiver.fields)
            return instance(
                receiver.node,
                fields,
                receiver.traced,
                receiver.arrays_only,
                "trace" if self.staged or self.context is not None else "outer",
            )
        return UNKNOWN


def _holder_object(
    kept: callback_holders.CallbackHolder, args: Sequence[Value], keywords: Mapping[str, Value]
) -> Value:
    """The library object a callback-keeping constructor builds, with the functions it keeps."""
    callbacks: list[tuple[str, Value]] = []
    if kept.combines:
        parts = [*args, *keywords.values()]
        for part in parts:
            # `named_chain(("clip", tx), ...)` pairs a name with each transformation.
            inner = part.items[-1] if isinstance(part, Seq) and part.items else part
            if isinstance(inner, LibraryObject):
                callbacks.extend(inner.callbacks)
    else:
        given = {**dict(zip(kept.methods, args, strict=False)), **keywords}
        callbacks = [(m, given[m]) for m in kept.methods if isinstance(given.get(m), FunctionRef | Transformed)]
    return LibraryObject(kept.qualname, callbacks=tuple(callbacks))


_JAX_ARRAY_TYPES = frozenset({"jax.Array", "jax.numpy.ndarray"})


def _array_isinstance(value: Value, classes: Value) -> bool | None:
    """``isinstance(x, cls)`` for a JAX array ``x`` and NumPy's or JAX's array class; ``None`` otherwise.

    A JAX array (a tracer too) is a ``jax.Array`` and never a ``numpy.ndarray``.
    """
    if not (isinstance(value, Array) and value.library == "jax"):
        return None
    names = [
        c.qualname for c in (classes.items if isinstance(classes, Seq) else (classes,)) if isinstance(c, ModuleRef)
    ]
    if not names or len(names) != (len(classes.items) if isinstance(classes, Seq) else 1):
        return None
    if any(name in _JAX_ARRAY_TYPES for name in names):
        return True
    return False if all(name == "numpy.ndarray" for name in names) else None


def _is_type_test(test: ast.expr) -> bool:
    """``isinstance(...)`` or ``not isinstance(...)``: a condition decided by a value's type."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    return isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"


_MATH_CONSTANTS = {"math.pi": math.pi, "math.e": math.e, "math.tau": math.tau}
_MATH_FUNCTIONS = frozenset(
    f"math.{name}"
    for name in ("cos", "sin", "tan", "tanh", "exp", "log", "log2", "log10", "sqrt", "floor", "ceil", "fabs", "pow")
)
"""Pure functions of the standard library's ``math``, folded on constant arguments (learning-rate schedules)."""


def _module_value(qualname: str) -> Value:
    """A module or API object by name; ``math.pi`` and its like are the numbers they are."""
    constant = _MATH_CONSTANTS.get(qualname)
    return Const(constant) if constant is not None else ModuleRef(qualname)


def _fold_math(qualname: str, args: list[object]) -> Value:
    try:
        result = getattr(math, qualname[5:])(*args)
    except (ValueError, OverflowError, TypeError):
        return UNKNOWN
    if isinstance(result, float) and not math.isfinite(result):
        return UNKNOWN
    return Const(result)


def _leafwise(value: Value, keep_shapes: bool, traced: bool) -> Value:
    """The result of a collective applied leaf by leaf: the same containers, an array for each leaf."""
    if isinstance(value, Seq):
        return Seq(tuple(_leafwise(item, keep_shapes, traced) for item in value.items), value.is_list)
    if isinstance(value, Dict):
        return Dict(value.keys, tuple(_leafwise(item, keep_shapes, traced) for item in value.values))
    if isinstance(value, Array):
        shape = value.shape if keep_shapes else None
        return Array(shape, value.dtype, value.weak_type, traced or value.traced, "jax")
    if _is_number(value):
        return Array((), None, False, traced, "jax")
    if isinstance(value, TracedTree):
        return value
    return UNKNOWN  # a leaf or a container: its structure is not known


def _array_type(value: Value) -> array_ops.ArrayType | None:
    """What the shared table needs of an array operand (a shape with an unknown size is unknown)."""
    if isinstance(value, Array):
        shape = value.shape if value.shape is not None and None not in value.shape else None
        return array_ops.ArrayType(shape, value.dtype, value.weak_type)  # type: ignore[arg-type]
    if isinstance(value, Const) and type(value.value) in (int, float, bool):
        return array_ops.ArrayType((), dtypes.python_scalar_dtype(type(value.value).__name__), True)
    return None


def _defaults(function: FunctionNode) -> dict[str, ast.expr]:
    """Parameter name -> its default value's expression."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    with_defaults = positional[len(positional) - len(args.defaults) :]
    found = {arg.arg: default for arg, default in zip(with_defaults, args.defaults, strict=True)}
    keyword_only = zip(args.kwonlyargs, args.kw_defaults, strict=True)
    found.update((arg.arg, default) for arg, default in keyword_only if default is not None)
    return found


UNKNOWN_OPTION = "unknown"
"""An option of a ``Transformed`` whose value is not known: not a literal or constant (a vmap's
``in_axes`` from a config, ``has_aux=cfg.aux``), or possibly set by ``**options``."""


def in_axes_literal(value: Value) -> object:
    """A vmap's ``in_axes`` value as Python data: an int, None, or a tuple of them (nested for pytree
    arguments; a list reads as a tuple, as vmap reads it). :data:`UNKNOWN_OPTION` when it is not known.

    Examples:
        >>> in_axes_literal(Seq((Const(None), Seq((Const(0), Const(1))))))
        (None, (0, 1))
        >>> in_axes_literal(Seq((Const(0), UNKNOWN)))
        'unknown'
    """
    if isinstance(value, Const) and (value.value is None or type(value.value) is int):
        return value.value
    if isinstance(value, Seq):
        items = tuple(in_axes_literal(item) for item in value.items)
        return UNKNOWN_OPTION if UNKNOWN_OPTION in items else items
    return UNKNOWN_OPTION


def _map_axes_options(in_axes: Value, out_axes: Value, hidden: bool) -> tuple[tuple[str, object], ...]:
    """A vmap's ``in_axes`` and ``out_axes`` options; unknown both when ``hidden`` (they may be set
    where the code does not show them)."""
    return tuple(
        (name, UNKNOWN_OPTION if hidden else in_axes_literal(value))
        for name, value in (("in_axes", in_axes), ("out_axes", out_axes))
    )


def vmapped_arguments(
    vmapped: Transformed, args: Sequence[Value], keywords: Mapping[str, Value]
) -> tuple[list[Value], dict[str, Value]] | None:
    """What the function under a ``vmap`` sees of the arguments of one call; None when vmap raises
    because ``in_axes`` has a different length.

    An entry of None passes its argument whole; keyword arguments are always mapped over axis 0;
    when ``in_axes`` is not known, every argument is a tracer of unknown shape.
    """
    axes = vmapped.option("in_axes", 0)
    mapped_keywords = {k: _mapped(v, 0) for k, v in keywords.items()}
    if axes == UNKNOWN_OPTION:
        blind = [_mapped(a, None) for a in args]
        shapeless = [Array(None, a.dtype, a.weak_type, True, a.library) if isinstance(a, Array) else a for a in blind]
        return shapeless, mapped_keywords
    if not isinstance(axes, tuple):
        axes = (axes,) * len(args)
    elif len(axes) != len(args):
        return None
    sliced = [
        a if axis is None else _mapped(a, axis if type(axis) is int else None)
        for a, axis in zip(args, axes, strict=True)
    ]
    return sliced, mapped_keywords


def _literal_options(keywords: Sequence[ast.keyword]) -> tuple[tuple[str, object], ...]:
    """A transform's keyword options other than vmap's axes: literal values, the others unknown.

    ``**options`` may set ``has_aux`` and ``argnums``, which change what a gradient call returns.
    """
    options: list[tuple[str, object]] = []
    for keyword in keywords:
        if keyword.arg in ("in_axes", "out_axes"):
            continue
        if keyword.arg is None:
            options += [("has_aux", UNKNOWN_OPTION), ("argnums", UNKNOWN_OPTION)]
        elif isinstance(keyword.value, ast.Constant):
            options.append((keyword.arg, keyword.value.value))
        else:
            options.append((keyword.arg, UNKNOWN_OPTION))
    return tuple(options)


def _literal_value(expr: ast.expr) -> Value:
    """A literal of ints, None and tuples or lists of them as a value (a decorator seen from another run)."""
    if isinstance(expr, ast.Constant):
        return Const(expr.value)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub) and isinstance(expr.operand, ast.Constant):
        value = expr.operand.value
        return Const(-value) if type(value) is int else UNKNOWN
    if isinstance(expr, ast.Tuple | ast.List):
        return Seq(tuple(_literal_value(e) for e in expr.elts), isinstance(expr, ast.List))
    return UNKNOWN


def _mapped(value: Value, axis: int | None = None) -> Value:
    """What a function under ``vmap`` sees of an argument: one slice along ``axis``, still traced.

    Without the axis, the slice keeps the rank but not the sizes.
    """
    if isinstance(value, Array):
        if value.shape and axis is not None and -len(value.shape) <= axis < len(value.shape):
            shape = list(value.shape)
            del shape[axis]
            return Array(tuple(shape), value.dtype, value.weak_type, True, value.library)
        rank = len(value.shape) - 1 if value.shape else None
        return Array(None if rank is None else (None,) * rank, value.dtype, value.weak_type, True, value.library)
    if isinstance(value, TracedTree):
        return value
    return UNKNOWN


def _generators(index: ModuleIndex) -> frozenset[int]:
    """The ``id`` of every function whose own body yields, from the yields the index collected."""
    found: set[int] = set()
    for yield_type in (ast.Yield, ast.YieldFrom):
        for _, scope in index.nodes[yield_type]:
            function = scope.enclosing_function()
            if function is not None:
                found.add(id(function.node))
    return frozenset(found)


def _decorator_name(decorator: ast.expr) -> str | None:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else None


def _as_parameter(value: Value, tracing: ParamTracing, name: str) -> Value:
    """What an argument becomes inside the function a transform traces (tracers for ``jax.jit``)."""
    if tracing is ParamTracing.ALL:
        return traced_copy(value, name)
    if tracing is ParamTracing.ARRAYS_ONLY:
        return _arrays_traced(value, name)
    if tracing is ParamTracing.IN_AXES:
        return _mapped(value) if not isinstance(value, TracedTree) else value
    return value


def _arrays_traced(value: Value, name: str) -> Value:
    """``equinox.filter_jit``'s view of an argument: its arrays are tracers, everything else stays static."""
    if isinstance(value, Array):
        return traced_copy(value, name)
    if isinstance(value, Seq):
        return Seq(tuple(_arrays_traced(item, name) for item in value.items), value.is_list)
    if isinstance(value, Dict):
        return Dict(value.keys, tuple(_arrays_traced(item, name) for item in value.values))
    if isinstance(value, Const | Static | FunctionRef | Transformed | ModuleRef | ClassRef):
        return value
    if isinstance(value, Instance):
        return instance(value.node, value.fields, traced=True, arrays_only=True)
    if isinstance(value, LibraryObject):
        return traced_copy(value, name)  # a layer's weights are arrays
    if isinstance(value, VariableBox):
        return VariableBox(value.qualname, traced_box_content(value.inner, name))
    return TracedTree(name, arrays_only=True)


def _children(tree: Value, like: Dict | Seq) -> list[Value] | None:
    """``tree``'s children in the order of ``like``'s, when it has the same container shape."""
    if isinstance(like, Dict) and isinstance(tree, Dict) and set(tree.keys) == set(like.keys):
        return [tree.values[tree.keys.index(key)] for key in like.keys]
    if isinstance(like, Seq) and isinstance(tree, Seq) and len(tree.items) == len(like.items):
        return list(tree.items)
    if isinstance(tree, TracedTree):
        return [TracedTree(tree.param, tree.arrays_only)] * (
            len(like.keys) if isinstance(like, Dict) else len(like.items)
        )
    return None


def _leaves(tree: Value) -> list[Value] | None:
    """The leaves of a pytree whose structure is known, in JAX's order (dict keys sorted)."""
    if isinstance(tree, Array):
        return [tree]
    if isinstance(tree, Dict):
        if not all(isinstance(key, str) for key in tree.keys):
            return None
        found: list[Value] = []
        for key in sorted(tree.keys):  # type: ignore[type-var]
            leaves = _leaves(tree.values[tree.keys.index(key)])
            if leaves is None:
                return None
            found.extend(leaves)
        return found
    if isinstance(tree, Seq):
        found = []
        for item in tree.items:
            leaves = _leaves(item)
            if leaves is None:
                return None
            found.extend(leaves)
        return found
    return None


HOST_VIEW = "numpy-view"
"""The ``library`` of a NumPy array that shares a JAX array's buffer: it is read-only."""


def _host_view(tree: Value) -> Value:
    """``jax.device_get`` of a tree: its JAX arrays become read-only NumPy arrays."""
    if isinstance(tree, Array):
        return Array(tree.shape, tree.dtype, False, False, HOST_VIEW) if tree.library == "jax" else tree
    if isinstance(tree, Seq):
        return Seq(tuple(_host_view(item) for item in tree.items), tree.is_list)
    if isinstance(tree, Dict):
        return Dict(tree.keys, tuple(_host_view(item) for item in tree.values))
    return UNKNOWN


def _dtype_of(value: Value) -> tuple[str, bool] | None:
    """An operand's ``(dtype, weak)`` for promotion: a Python number is weak, an array its own."""
    if isinstance(value, Array):
        return (value.dtype, value.weak_type) if value.dtype in dtypes.PROMOTABLE_DTYPES else None
    if isinstance(value, Const) and type(value.value) in (int, float, complex, bool):
        dtype = dtypes.python_scalar_dtype(type(value.value).__name__)
        return (dtype, dtype != "bool") if dtype is not None else None
    return None


def _arithmetic_dtype(op: ast.operator, left: Value, right: Value) -> tuple[str | None, bool]:
    """The dtype and weak type of ``left op right`` by JAX's promotion, ``(None, False)`` when unknown."""
    operands = [_dtype_of(left), _dtype_of(right)]
    if None in operands or isinstance(op, ast.MatMult | ast.LShift | ast.RShift):
        return None, False
    try:
        dtype, weak = dtypes.result_type(*operands)  # type: ignore[arg-type]
    except ValueError:
        return None, False
    if isinstance(op, ast.Div) and not dtypes.is_inexact(dtype):
        return ("float32", weak)  # true division of integers gives floats
    if isinstance(op, ast.BitAnd | ast.BitOr | ast.BitXor) and dtypes.is_inexact(dtype):
        return None, False
    return dtype, weak


def _batch_size(args: Sequence[Value], axes: Sequence[object]) -> int | None:
    """The size of the mapped axis ``vmap`` sees: the mapped axis of the first mapped array argument."""
    for arg, axis in zip(args, axes, strict=True):
        if isinstance(arg, Array) and arg.shape and type(axis) is int and -len(arg.shape) <= axis < len(arg.shape):
            return arg.shape[axis]
    return None


def _stacked(value: Value, size: int | None) -> Value:
    """``vmap``'s result: each array of the per-slice result with the mapped axis in front."""
    if isinstance(value, Array):
        shape = (size, *value.shape) if value.shape is not None else None
        return Array(shape, value.dtype, value.weak_type, True, "jax")
    if isinstance(value, Seq):
        return Seq(tuple(_stacked(item, size) for item in value.items), value.is_list)
    return UNKNOWN


def _gradient_like(value: Value, staged: bool) -> Value:
    """The gradient with respect to ``value``: an array of its shape and (float) dtype."""
    if isinstance(value, Array):
        return Array(
            value.shape, value.dtype if value.dtype and dtypes.is_inexact(value.dtype) else None, False, staged
        )
    if isinstance(value, Seq):
        return Seq(tuple(_gradient_like(item, staged) for item in value.items), value.is_list)
    if isinstance(value, Dict):
        return Dict(value.keys, tuple(_gradient_like(item, staged) for item in value.values))
    if isinstance(value, TracedTree) and staged:
        return TracedTree(value.param, value.arrays_only)
    return UNKNOWN


def _is_generator(node: ast.AST) -> bool:
    """Whether a function's own body (not a nested function's) yields."""
    body = node.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else []
    stack: list[ast.AST] = list(body)
    while stack:
        child = stack.pop()
        if isinstance(child, ast.Yield | ast.YieldFrom):
            return True
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(child))
    return False


def _reshaped(shape: tuple[int | None, ...] | None, args: list[Value]) -> tuple[int | None, ...] | None:
    """The shape ``x.reshape(*args)`` gives when ``x``'s shape and the sizes are known (one ``-1`` allowed).

    Examples:
        >>> _reshaped((512, 128), [Const(4), Const(-1)])
        (4, 16384)
        >>> _reshaped((6,), [Seq((Const(4), Const(2)))]) is None
        True
    """
    sizes = args[0].items if len(args) == 1 and isinstance(args[0], Seq) else tuple(args)
    if shape is None or None in shape or not all(isinstance(v, Const) and type(v.value) is int for v in sizes):
        return None
    total = math.prod(size for size in shape if size is not None)
    new = [v.value for v in sizes if isinstance(v, Const) and isinstance(v.value, int)]
    known = math.prod(size for size in new if size != -1)
    if new.count(-1) == 1 and known > 0 and total % known == 0:
        new[new.index(-1)] = total // known
    if any(size < 0 for size in new) or math.prod(new) != total:
        return None
    return tuple(new)


_UNARY: dict[type, Callable[[object], object]] = {
    ast.USub: lambda v: -v,  # type: ignore[operator]
    ast.UAdd: lambda v: +v,  # type: ignore[operator]
    ast.Invert: lambda v: ~v,  # type: ignore[operator]
}

_BINARY: dict[type, Callable[[object, object], object]] = {
    ast.Add: lambda a, b: a + b,  # type: ignore[operator]
    ast.Sub: lambda a, b: a - b,  # type: ignore[operator]
    ast.Mult: lambda a, b: a * b,  # type: ignore[operator]
    ast.Div: lambda a, b: a / b,  # type: ignore[operator]
    ast.FloorDiv: lambda a, b: a // b,  # type: ignore[operator]
    ast.Mod: lambda a, b: a % b,  # type: ignore[operator]
    ast.Pow: lambda a, b: a**b,  # type: ignore[operator]
    ast.LShift: lambda a, b: a << b,  # type: ignore[operator]
    ast.RShift: lambda a, b: a >> b,  # type: ignore[operator]
    ast.BitAnd: lambda a, b: a & b,  # type: ignore[operator]
    ast.BitOr: lambda a, b: a | b,  # type: ignore[operator]
    ast.BitXor: lambda a, b: a ^ b,  # type: ignore[operator]
}


def _rank_at_most(value: Value, rank: int) -> bool:
    return isinstance(value, Array) and value.shape is not None and 1 <= len(value.shape) <= rank


_BINARY_FUNCTIONS: dict[str, ast.operator] = {
    "add": ast.Add(),
    "subtract": ast.Sub(),
    "multiply": ast.Mult(),
    "divide": ast.Div(),
    "true_divide": ast.Div(),
    "power": ast.Pow(),
    "matmul": ast.MatMult(),
}
"""``jax.numpy`` functions that compute what the operator does, dtype and shape included."""

_STATEMENTS: dict[type, Callable[[_FunctionRun, ast.stmt], bool]] = {  # type: ignore[dict-item]
    ast.Assign: _FunctionRun.s_assign,
    ast.AnnAssign: _FunctionRun.s_annassign,
    ast.AugAssign: _FunctionRun.s_augassign,
    ast.Expr: _FunctionRun.s_expr,
    ast.Return: _FunctionRun.s_return,
    ast.Raise: _FunctionRun.s_raise,
    ast.Break: _FunctionRun.s_jump,
    ast.Continue: _FunctionRun.s_jump,
    ast.If: _FunctionRun.s_if,
    ast.For: _FunctionRun.s_for,
    ast.AsyncFor: _FunctionRun.s_for,
    ast.While: _FunctionRun.s_while,
    ast.With: _FunctionRun.s_with,
    ast.AsyncWith: _FunctionRun.s_with,
    ast.Try: _FunctionRun.s_try,
    ast.TryStar: _FunctionRun.s_try,
    ast.FunctionDef: _FunctionRun.s_def,
    ast.AsyncFunctionDef: _FunctionRun.s_def,
    ast.ClassDef: _FunctionRun.s_class,
    ast.Import: _FunctionRun.s_import,
    ast.ImportFrom: _FunctionRun.s_import,
    ast.Delete: _FunctionRun.s_delete,
    ast.Assert: _FunctionRun.s_assert,
    ast.Match: _FunctionRun.s_match,
    ast.Pass: _FunctionRun.s_noop,
    ast.Global: _FunctionRun.s_noop,
    ast.Nonlocal: _FunctionRun.s_noop,
}

_EXPRESSIONS: dict[type, Callable[[_FunctionRun, ast.expr], Value]] = {  # type: ignore[dict-item]
    ast.Name: _FunctionRun.e_name,
    ast.Constant: _FunctionRun.e_constant,
    ast.Attribute: _FunctionRun.e_attribute,
    ast.Subscript: _FunctionRun.e_subscript,
    ast.Slice: _FunctionRun.e_slice,
    ast.Tuple: _FunctionRun.e_tuple,
    ast.List: _FunctionRun.e_tuple,
    ast.Dict: _FunctionRun.e_dict,
    ast.Set: _FunctionRun.e_set,
    ast.JoinedStr: _FunctionRun.e_joinedstr,
    ast.Lambda: _FunctionRun.e_lambda,
    ast.NamedExpr: _FunctionRun.e_namedexpr,
    ast.Starred: _FunctionRun.e_starred,
    ast.Await: _FunctionRun.e_await,
    ast.ListComp: _FunctionRun.e_comprehension,
    ast.SetComp: _FunctionRun.e_comprehension,
    ast.GeneratorExp: _FunctionRun.e_comprehension,
    ast.DictComp: _FunctionRun.e_comprehension,
    ast.IfExp: _FunctionRun.e_ifexp,
    ast.BoolOp: _FunctionRun.e_boolop,
    ast.UnaryOp: _FunctionRun.e_unaryop,
    ast.BinOp: _FunctionRun.e_binop,
    ast.Compare: _FunctionRun.e_compare,
    ast.Call: _FunctionRun.e_call,
}
