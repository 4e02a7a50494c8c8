"""Find the traced functions of a module, and which of their parameters are traced.

A function is traced when it is decorated by a transform (``@jax.jit``,
``@partial(jax.jit, static_argnames=...)``, ``@jax.jit(static_argnums=0)``) or passed to one
(``jax.jit(f)``, ``lax.scan(body, ...)``, ``jax.jit(partial(f, cfg))``,
``jax.jit(jax.grad(loss))``). Functions nested inside a traced function run during its trace,
so they inherit the context (their own parameters stay unknown). When a static-argument list
is not a literal, the analyzer cannot tell which parameters are traced and treats none as traced.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field

from xlalens.analyzers.knowledge import callback_holders, lax_control_flow
from xlalens.analyzers.knowledge.transforms import (
    LINEN_METHODS,
    FunctionSlot,
    ParamTracing,
    TransformSpec,
    transform_spec,
)
from xlalens.analyzers.semantics.calls import call_graph
from xlalens.analyzers.semantics.classes import class_model, self_assignments
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import (
    FunctionNode,
    ModuleIndex,
    Scope,
    all_params,
    assigned_values,
    name_loads,
    positional_params,
)
from xlalens.analyzers.semantics.values import FunctionRef, Instance, Transformed


@dataclass(eq=False)
class TracedFunction:
    """How one function is traced.

    Attributes:
        node: The function or lambda.
        traced_params: Parameter name -> how it is traced; parameters not listed are not traced.
        stages: Whether constants built inside are traced too (``jit``, control-flow bodies).
        via: The transform that traces it, for messages (``jax.jit``).
        sites: The decorators or calls that make it traced.
        inherited: True when the function is only traced because it is nested in a traced one.
        static_params: Parameters declared static.
        called_from: The traced function whose call runs this one (``None`` when a transform, a
            decorator or nesting traces it); its parameters then take what the traced calls pass.
        receivers: For a method handed to a transform as ``obj.method``: each ``obj`` with its scope.
        mapped_axes: For ``vmap``: the axis each mapped parameter is sliced along, when written literally.
    """

    node: FunctionNode
    traced_params: dict[str, ParamTracing] = field(default_factory=dict)
    stages: bool = False
    via: str = ""
    sites: list[ast.AST] = field(default_factory=list)
    inherited: bool = False
    static_params: set[str] = field(default_factory=set)
    jit_spec: TransformSpec | None = None
    jit_keywords: dict[str, ast.expr] = field(default_factory=dict)
    called_from: FunctionNode | None = None
    receivers: list[tuple[ast.expr, Scope]] = field(default_factory=list)
    mapped_axes: dict[str, int] = field(default_factory=dict)

    @property
    def by_callers(self) -> bool:
        """Whether only the calls of traced functions trace it (see ``called_from``)."""
        return self.called_from is not None

    def merge(self, other: TracedFunction) -> None:
        """Combine a second way this function is traced into this one."""
        for name, tracing in other.traced_params.items():
            if self.traced_params.get(name) is not ParamTracing.ALL:
                self.traced_params[name] = tracing
        self.stages = self.stages or other.stages
        self.sites.extend(other.sites)
        self.receivers.extend(other.receivers)
        if self.mapped_axes != other.mapped_axes:
            self.mapped_axes = {}  # mapped along different axes by two transforms: sizes unknown
        self.inherited = self.inherited and other.inherited
        if other.jit_spec is not None and self.jit_spec is None:
            self.jit_spec, self.jit_keywords = other.jit_spec, other.jit_keywords
        if not self.via or self.via == "inherited":
            self.via = other.via


def _literal_ints(expr: ast.expr) -> list[int] | None:
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return [expr.value]
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _literal_ints(expr.operand)
        return [-inner[0]] if inner and len(inner) == 1 else None
    if isinstance(expr, ast.Tuple | ast.List):
        out: list[int] = []
        for elt in expr.elts:
            value = _literal_ints(elt)
            if value is None or len(value) != 1:
                return None
            out.extend(value)
        return out
    return None


def _literal_strs(expr: ast.expr) -> list[str] | None:
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, ast.Tuple | ast.List):
        out = []
        for elt in expr.elts:
            if not (isinstance(elt, ast.Constant) and isinstance(elt.value, str)):
                return None
            out.append(elt.value)
        return out
    return None


def static_param_names(
    keywords: dict[str, ast.expr],
    spec: TransformSpec,
    callable_params: list[str],
) -> set[str] | None:
    """The parameters a transform's keywords declare static; None when they are not literals.

    ``callable_params`` are the positional parameters of the callable the transform sees
    (after ``functools.partial`` has bound some).
    """
    return declared_param_names(keywords, spec.static_keywords, callable_params)


def declared_param_names(
    keywords: dict[str, ast.expr],
    names: tuple[str, ...],
    callable_params: list[str],
) -> set[str] | None:
    """The parameters that ``*_argnums``/``*_argnames`` keywords among ``names`` declare; None if not literals.

    Used for ``static_argnums/static_argnames`` and ``donate_argnums/donate_argnames`` alike.

    Examples:
        >>> call = ast.parse("jit(f, donate_argnums=(0,), donate_argnames='b')").body[0].value
        >>> keywords = {k.arg: k.value for k in call.keywords}
        >>> sorted(declared_param_names(keywords, ("donate_argnums", "donate_argnames"), ["a", "b", "c"]))
        ['a', 'b']
    """
    static: set[str] = set()
    for keyword in names:
        expr = keywords.get(keyword)
        if expr is None:
            continue
        if keyword.endswith("argnames"):
            names = _literal_strs(expr)
            if names is None:
                return None
            static.update(names)
        else:
            numbers = _literal_ints(expr)
            if numbers is None:
                return None
            for number in numbers:
                if -len(callable_params) <= number < len(callable_params):
                    static.add(callable_params[number])
    return static


class _Discovery:
    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self.found: dict[int, TracedFunction] = {}
        self.value_targets: list[
            tuple[ast.expr, TransformSpec, dict[str, ast.expr], Scope, ast.AST, ast.Call | None, set[str]]
        ] = []

    def run(self) -> dict[int, TracedFunction]:
        index = self.index
        for scope in index.functions:
            node = scope.node
            if isinstance(node, ast.Lambda) or scope.parent is None:
                continue
            for decorator in node.decorator_list:  # type: ignore[union-attr]
                decoded = self.decode_transform(decorator, scope.parent)
                if decoded is not None:
                    spec, keywords = decoded
                    self.add(node, spec, keywords, 0, set(), decorator, None)
        for call, scope in index.nodes.get(ast.Call, ()):
            assert isinstance(call, ast.Call)
            self.visit_call(call, scope)
        self.inherit()
        self.follow_calls()
        return self.found

    def decode_transform(self, expr: ast.expr, scope: Scope) -> tuple[TransformSpec, dict[str, ast.expr]] | None:
        """Recognise ``jax.jit``, ``jax.jit(static_argnums=...)`` and ``partial(jax.jit, ...)``."""
        if isinstance(expr, ast.Name | ast.Attribute):
            spec = transform_spec(self.index.qualname(expr, scope))
            return (spec, {}) if spec is not None else None
        if not isinstance(expr, ast.Call):
            return None
        keywords = {k.arg: k.value for k in expr.keywords if k.arg is not None}
        qualname = self.index.qualname(expr.func, scope)
        spec = transform_spec(qualname)
        if spec is not None and not expr.args:
            return spec, keywords
        if qualname == "functools.partial" and len(expr.args) == 1:
            inner = self.decode_transform(expr.args[0], scope)
            if inner is not None and not inner[1]:
                return inner[0], keywords
        return None

    def visit_call(self, call: ast.Call, scope: Scope) -> None:
        spec = transform_spec(self.index.qualname(call.func, scope))
        if spec is None:
            if isinstance(call.func, ast.Call) and call.args:
                decoded = self.decode_transform(call.func, scope)
                if decoded is not None:
                    self.add_target(call.args[0], decoded[0], decoded[1], scope, call, None)
            return
        keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
        for function_expr in self.function_arguments(spec, call, keywords, scope):
            self.add_target(function_expr, spec, keywords, scope, call, call)

    def function_arguments(
        self, spec: TransformSpec, call: ast.Call, keywords: dict[str, ast.expr], scope: Scope
    ) -> list[ast.expr]:
        args = call.args
        slot = spec.slot
        if slot is FunctionSlot.FIRST:
            if args:
                return [args[0]]
            for name in ("fun", "f", "body_fun", "kernel"):
                if name in keywords:
                    return [keywords[name]]
            return []
        primitive = lax_control_flow.signature(spec.name)
        if slot is not FunctionSlot.CONTROL_FLOW or primitive is None:
            return []
        if primitive.qualname == "jax.lax.cond" and len(args) == 5:
            # The old form cond(pred, true_operand, true_fun, false_operand, false_fun).
            return [args[2], args[4]]
        found: list[ast.expr] = []
        for param in primitive.functions:
            argument = primitive.argument(call, param)
            if param == "branches":
                found.extend((self.index.literal_elements(argument, scope) or []) if argument is not None else ())
            elif argument is not None:
                found.append(argument)
        return found

    def add_target(
        self,
        expr: ast.expr,
        spec: TransformSpec,
        keywords: dict[str, ast.expr],
        scope: Scope,
        site: ast.AST,
        call: ast.Call | None,
    ) -> None:
        bound_positional = 0
        bound_names: set[str] = set()
        binds_unknown_keywords = False
        while True:
            if isinstance(expr, ast.Call):
                inner_name = self.index.qualname(expr.func, scope)
                inner_spec = transform_spec(inner_name)
                if inner_name == "functools.partial" and expr.args:
                    bound_positional += len(expr.args) - 1
                    for keyword in expr.keywords:
                        if keyword.arg is not None:
                            bound_names.add(keyword.arg)
                            continue
                        # `partial(kernel, **kernel_kwargs)`: the keys of the mapping, when it is written out.
                        keys = self.mapping_keys(keyword.value, scope)
                        binds_unknown_keywords |= keys is None
                        bound_names.update(keys or ())
                    expr = expr.args[0]
                    continue
                if inner_spec is not None and inner_spec.slot is FunctionSlot.FIRST and expr.args:
                    expr = expr.args[0]
                    continue
                if bound_positional == 0 and not bound_names:
                    # `jax.jit(Loss(3))`: an object whose class only the value tells.
                    self.value_targets.append((expr, spec, keywords, scope, site, call, bound_names))
                return
            break
        target: FunctionNode | None = None
        if isinstance(expr, ast.Lambda):
            target = expr
        elif isinstance(expr, ast.Name):
            target = self.index.local_function(expr.id, scope)
            if target is None and self.index.qualname(expr, scope) is None:
                # `jax.jit(model)`: a variable holding an object (its __call__) or a function.
                self.value_targets.append((expr, spec, keywords, scope, site, call, bound_names))
        elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            target = self.bound_method(expr.value.id, expr.attr, scope)
            bound_positional += 1
            if target is None and self.index.qualname(expr, scope) is None:
                # `jax.jit(trainer.step)`: which method only the receiver's value tells.
                self.value_targets.append((expr, spec, keywords, scope, site, call, bound_names))
        if target is not None:
            if binds_unknown_keywords and not isinstance(target, ast.Lambda):
                # Any parameter a keyword can reach may be bound (and so be a constant, not traced).
                bound_names.update(all_params(target)[bound_positional:])
            self.add(target, spec, keywords, bound_positional, bound_names, site, call)
            if isinstance(expr, ast.Attribute) and id(target) in self.found:
                self.found[id(target)].receivers.append((expr.value, scope))

    def mapping_keys(self, expr: ast.expr, scope: Scope) -> set[str] | None:
        """The string keys of a mapping written in place (``{"a": 1}``, ``dict(a=1)``) or bound once to a name."""
        if isinstance(expr, ast.Name):
            found = self.index.single_assignment(expr.id, scope)
            if found is None:
                return None
            expr = found[0].value
        if isinstance(expr, ast.Dict):
            keys = [key.value if isinstance(key, ast.Constant) else None for key in expr.keys]
            return {key for key in keys if isinstance(key, str)} if all(isinstance(k, str) for k in keys) else None
        if (
            isinstance(expr, ast.Call)
            and self.index.qualname(expr.func, scope) == "builtins.dict"
            and not expr.args
            and all(keyword.arg is not None for keyword in expr.keywords)
        ):
            return {keyword.arg for keyword in expr.keywords if keyword.arg is not None}
        return None

    def bound_method(self, receiver: str, method: str, scope: Scope) -> FunctionNode | None:
        """``self.method`` inside a method: the ``def method`` of the same class."""
        function = scope.enclosing_function()
        if function is None or not isinstance(function.node, ast.FunctionDef) or function.parent is None:
            return None
        if not function.parent.is_class or positional_params(function.node)[:1] != [receiver]:
            return None
        class_node = function.parent.node
        assert isinstance(class_node, ast.ClassDef)
        for statement in class_node.body:
            if isinstance(statement, ast.FunctionDef) and statement.name == method:
                return statement
        return None

    def add(
        self,
        node: FunctionNode,
        spec: TransformSpec,
        keywords: dict[str, ast.expr],
        bound_positional: int,
        bound_names: set[str],
        site: ast.AST,
        call: ast.Call | None,
    ) -> None:
        if spec.params is ParamTracing.NONE:
            return
        if spec.is_jit and _only_called_without_jit(self.index, node, site):
            return
        all_positional = positional_params(node)
        bound = {*bound_names, *all_positional[:bound_positional]}
        positional = all_positional[bound_positional:]
        every = [p for p in all_params(node) if p not in bound]
        static = static_param_names(keywords, spec, positional)
        traced: dict[str, ParamTracing] = {}
        if static is not None:
            if spec.params is ParamTracing.IN_AXES:
                traced = self.vmapped_params(keywords, call, positional, every)
            else:
                traced = {p: spec.params for p in every if p not in static}
        if spec.is_jit or spec.params is ParamTracing.IN_AXES:
            applied = self.index.derived("calls-by-callee", _calls_by_callee).get(id(call)) if call else None
            for name in self.defaults_never_passed(node, bound_positional, applied[0] if applied else None):
                traced.pop(name, None)
        if spec.name in _SHARD_MAPS:
            for name in _unmapped_params(keywords, call, positional):
                traced.pop(name, None)
        axes = _mapped_axes(keywords, call, positional, every) if spec.params is ParamTracing.IN_AXES else {}
        info = TracedFunction(
            node=node,
            traced_params=traced,
            mapped_axes=axes,
            stages=spec.stages,
            via=spec.name,
            sites=[site],
            static_params=static or set(),
            jit_spec=spec if spec.is_jit else None,
            jit_keywords=keywords if spec.is_jit else {},
        )
        existing = self.found.get(id(node))
        if existing is None:
            self.found[id(node)] = info
        else:
            existing.merge(info)

    def defaults_never_passed(
        self, node: FunctionNode, bound_positional: int, application: ast.Call | None = None
    ) -> set[str]:
        """Parameters with a literal default that no call in the module passes.

        A transformed function traces only the arguments it is called with; a parameter left to its
        default keeps the Python value inside the trace, so ``n: int = 16`` stays static unless
        some call passes ``n``. Calls are matched by the function's name and the names bound to
        expressions that mention it (``step = jax.jit(train_step)``), and ``application`` is the
        call that applies the transform's result on the spot (``jax.vmap(f)(keys)``).
        """
        defaults = _literal_defaults(node)
        if not defaults:
            return set()
        calls = self.index.derived("calls-by-name", _calls_by_name)
        if isinstance(node, ast.Lambda):
            named = {
                t.id
                for t in self.index.derived("assigned-values", assigned_values).get(id(node), ())
                if isinstance(t, ast.Name)
            }
        else:
            named = {node.name}
        names = {
            *named,
            *(
                bound
                for name in named
                for bound in self.index.derived("names-bound-from", _names_bound_from).get(name, ())
            ),
        }
        positional = positional_params(node)
        passed: set[str] = set()
        for call in [
            *([application] if application is not None else []),
            *(c for n in names for c in calls.get(n, ())),
        ]:
            if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                return set()
            passed.update(positional[bound_positional : bound_positional + len(call.args)])
            passed.update(k.arg for k in call.keywords if k.arg is not None)
        return set(defaults) - passed

    @staticmethod
    def vmapped_params(
        keywords: dict[str, ast.expr],
        call: ast.Call | None,
        positional: list[str],
        every: list[str],
    ) -> dict[str, ParamTracing]:
        in_axes = keywords.get("in_axes")
        if in_axes is None and call is not None and len(call.args) >= 2:
            in_axes = call.args[1]
        if in_axes is None:
            return {p: ParamTracing.ALL for p in every}
        if isinstance(in_axes, ast.Constant):
            if in_axes.value is None:
                return {}
            return {p: ParamTracing.ALL for p in every} if type(in_axes.value) is int else {}
        if isinstance(in_axes, ast.Tuple | ast.List) and len(in_axes.elts) <= len(positional):
            # One entry per argument passed; parameters after them keep their defaults.
            traced = {}
            for name, axis in zip(positional, in_axes.elts, strict=False):
                if isinstance(axis, ast.Constant) and axis.value is None:
                    continue
                if isinstance(axis, ast.Constant) and type(axis.value) is int:
                    traced[name] = ParamTracing.ALL
            return traced
        return {}

    def follow_calls(self) -> None:
        """Trace the module's own functions that traced functions call, transitively.

        A helper called while a function is traced runs during that trace: the arrays it builds are
        tracers and it sees what its traced callers pass. Its findings name the caller it was reached
        from. Functions nested in such a helper inherit it, as they do for any traced function.
        """
        if not self.found:
            return
        graph = call_graph(self.index)
        followed: set[int] = set()
        while len(followed) < len(self.found):
            for caller in list(self.found.values()):
                if id(caller.node) in followed:
                    continue
                followed.add(id(caller.node))
                for site in graph.calls_in(caller.node):
                    if id(site.callee) not in self.found:
                        self.found[id(site.callee)] = TracedFunction(
                            node=site.callee,
                            stages=caller.stages,
                            via=caller.via,
                            sites=[site.call],
                            called_from=caller.node,
                        )
            self.inherit()

    def inherit(self) -> None:
        for scope in self.index.functions:
            if id(scope.node) in self.found:
                continue
            parent = scope.parent.enclosing_function() if scope.parent else None
            while parent is not None:
                outer = self.found.get(id(parent.node))
                if outer is not None:
                    self.found[id(scope.node)] = TracedFunction(
                        node=scope.node,  # type: ignore[arg-type]
                        stages=outer.stages,
                        via=outer.via,
                        inherited=True,
                    )
                    break
                parent = parent.parent.enclosing_function() if parent.parent else None


_SHARD_MAPS = frozenset({"jax.shard_map", "jax.experimental.shard_map.shard_map", "flax.nnx.shard_map"})


def _mapped_axes(
    keywords: dict[str, ast.expr], call: ast.Call | None, positional: list[str], every: list[str]
) -> dict[str, int]:
    """The axis ``vmap`` slices each parameter along, where ``in_axes`` says it literally (default 0)."""
    in_axes = keywords.get("in_axes")
    if in_axes is None and call is not None and len(call.args) >= 2:
        in_axes = call.args[1]
    if in_axes is None:
        return dict.fromkeys(every, 0)
    if isinstance(in_axes, ast.Constant) and type(in_axes.value) is int:
        return dict.fromkeys(every, in_axes.value)
    if isinstance(in_axes, ast.Tuple | ast.List):
        return {
            name: axis.value
            for name, axis in zip(positional, in_axes.elts, strict=False)
            if isinstance(axis, ast.Constant) and type(axis.value) is int
        }
    return {}


def _unmapped_params(keywords: dict[str, ast.expr], call: ast.Call | None, positional: list[str]) -> list[str]:
    """``shard_map`` parameters whose ``in_specs`` entry is ``None``: JAX passes those as static Python values."""
    in_specs = keywords.get("in_specs")
    if in_specs is None and call is not None and len(call.args) >= 3:
        in_specs = call.args[2]  # jax.experimental.shard_map.shard_map(f, mesh, in_specs, out_specs)
    if isinstance(in_specs, ast.Constant) and in_specs.value is None:
        return positional
    if isinstance(in_specs, ast.Tuple) and len(in_specs.elts) == len(positional):
        return [
            name
            for name, entry in zip(positional, in_specs.elts, strict=True)
            if isinstance(entry, ast.Constant) and entry.value is None
        ]
    return []


def _only_called_without_jit(index: ModuleIndex, function: FunctionNode, site: ast.AST) -> bool:
    """Whether every call of a jitted function runs under ``jax.disable_jit()`` (so nothing is traced).

    The jitted callable is the decorated function or the name the ``jax.jit(...)`` call is assigned
    to; it counts only when that name is used for nothing but calls.
    """
    blocks = index.derived("disable-jit-blocks", _disable_jit_blocks)
    if not blocks:
        return False
    if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) and site in function.decorator_list:
        name = function.name
    else:
        targets = index.derived("assigned-values", assigned_values).get(id(site), [])
        if len(targets) != 1 or not isinstance(targets[0], ast.Name):
            return False
        name = targets[0].id
    calls = [c for c in index.derived("calls-by-name", _calls_by_name).get(name, ()) if isinstance(c.func, ast.Name)]
    uses = index.derived("name-loads", name_loads).get(name, 0)
    if not calls or uses != len(calls):
        return False
    return all(any(first <= c.lineno <= last for first, last in blocks) for c in calls)


def _disable_jit_blocks(index: ModuleIndex) -> list[tuple[int, int]]:
    """The line spans of the bodies of ``with jax.disable_jit():`` statements."""
    mentioned = any(a.attr == "disable_jit" for a, _ in index.nodes.get(ast.Attribute, ()))  # type: ignore[attr-defined]
    if not mentioned and not any(n.id == "disable_jit" for n, _ in index.nodes.get(ast.Name, ())):  # type: ignore[attr-defined]
        return []
    blocks: list[tuple[int, int]] = []
    collected = ast.With in index.nodes
    withs = [n for n, _ in index.nodes[ast.With]] if collected else ast.walk(index.tree)
    for node in withs:
        if isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                context = item.context_expr
                head = context.func if isinstance(context, ast.Call) else context
                scope = index.module_scope
                if index.qualname(head, scope) == "jax.disable_jit" and node.body:
                    blocks.append((node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno))
    return blocks


def _literal_defaults(node: FunctionNode) -> list[str]:
    """Parameters whose default is a literal constant (``16``, ``True``, ``None``, ``"sum"``)."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True))
    pairs.extend((arg, default) for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True) if default)
    return [arg.arg for arg, default in pairs if isinstance(default, ast.Constant)]


def _calls_by_name(index: ModuleIndex) -> dict[str, list[ast.Call]]:
    """The module's calls by their callee's last name (``f`` of ``f(x)`` and of ``self.f(x)``)."""
    calls: dict[str, list[ast.Call]] = {}
    for call, _ in index.nodes.get(ast.Call, ()):
        assert isinstance(call, ast.Call)
        func = call.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name is not None:
            calls.setdefault(name, []).append(call)
    return calls


def _names_bound_from(index: ModuleIndex) -> dict[str, set[str]]:
    """For each name, the names assigned from an expression that mentions it (``g = jax.jit(f)``)."""
    bound: dict[str, set[str]] = {}
    for statement, _ in index.nodes.get(ast.Assign, ()):
        assert isinstance(statement, ast.Assign)
        targets = [
            t.id if isinstance(t, ast.Name) else t.attr
            for t in statement.targets
            if isinstance(t, ast.Name | ast.Attribute)
        ]
        if not targets:
            continue
        for child in ast.walk(statement.value):
            mentioned = (
                child.id if isinstance(child, ast.Name) else child.attr if isinstance(child, ast.Attribute) else None
            )
            if mentioned is not None:
                bound.setdefault(mentioned, set()).update(targets)
    return bound


def decode_transform(
    index: ModuleIndex, expr: ast.expr, scope: Scope
) -> tuple[TransformSpec, dict[str, ast.expr]] | None:
    """The transform a decorator or callee expression applies, with its keywords.

    Recognises ``jax.jit``, ``jax.jit(static_argnums=...)`` and ``partial(jax.jit, ...)``; None
    for anything else.
    """
    return _Discovery(index).decode_transform(expr, scope)


def find_traced_functions(index: ModuleIndex) -> dict[int, TracedFunction]:
    """Map ``id(function node)`` to how it is traced, for every traced function in the module."""
    return _discovery(index).found


def _discovery(index: ModuleIndex) -> _Discovery:
    """The discovery of the module's traced functions by name, run once per check."""

    def run(index: ModuleIndex) -> _Discovery:
        discovery = _Discovery(index)
        discovery.run()
        return discovery

    return index.derived("traced-discovery", run)


_ROUNDS = 4
"""How many times traced functions are evaluated to find the calls only their values resolve."""


def follow_values(interpreter: Interpreter) -> None:
    """Add to ``interpreter.traced`` the functions traced functions call through values.

    ``model(x)`` runs ``Model.__call__`` when ``model`` holds a ``Model``, which only the interpreter
    knows (from the call sites that built it). Each traced function with such calls is evaluated; a
    callee it reaches becomes traced by that call, and the functions it calls in turn, until nothing
    new is found (a few rounds at most).
    """
    traced = interpreter.traced
    assert isinstance(traced, dict)
    index = interpreter.index
    _trace_method_values(interpreter, traced)
    unresolved = index.derived("calls-through-values", _calls_through_values)
    evaluated: set[int] = set()
    for _ in range(_ROUNDS):
        for info in list(traced.values()):
            if id(info.node) in evaluated:
                continue
            evaluated.add(id(info.node))
            scope = index.scope_of(info.node)
            if scope is not None and id(info.node) in unresolved:
                interpreter.evaluation(scope)
        added = False
        for sites in list(interpreter.dynamic_sites.values()):
            for site in sites:
                owner = site.caller.enclosing_function()
                caller = traced.get(id(owner.node)) if owner is not None else None
                if caller is None or id(site.callee) in traced:
                    continue
                traced[id(site.callee)] = TracedFunction(
                    node=site.callee, stages=caller.stages, via=caller.via, sites=[site.call], called_from=caller.node
                )
                interpreter.forget(site.callee)
                added = True
        if not added:
            return
        discovery = _Discovery(index)
        discovery.found = traced
        discovery.follow_calls()
        for node_id in traced.keys() - evaluated:
            interpreter.forget(traced[node_id].node)
        interpreter.forget_provided_params()


def traced_root(index: ModuleIndex, traced: Mapping[int, TracedFunction], node: FunctionNode) -> FunctionNode:
    """The function whose transform makes ``node`` traced: itself, or the traced caller (or enclosing
    function) it is traced through, followed a few steps."""
    for _ in range(8):
        info = traced.get(id(node))
        if info is None:
            return node
        if info.called_from is not None:
            node = info.called_from
            continue
        if info.inherited:
            scope = index.scope_of(node)
            outer = scope.parent.enclosing_function() if scope is not None and scope.parent is not None else None
            if outer is None:
                return node
            node = outer.node  # type: ignore[assignment]
            continue
        return node
    return node


def applied_eagerly(index: ModuleIndex, traced: Mapping[int, TracedFunction], node: FunctionNode) -> bool:
    """Whether ``node`` is traced only by a non-staging transform applied on the spot outside any trace.

    ``jax.vmap(f)(x)`` at the top level traces ``f`` on every call, with no compile cache: a ``print``
    there runs every time (and shows the batch tracer). Under ``jax.jit``, or stored and called later,
    that is not known, so this says ``False``.
    """
    info = traced.get(id(node))
    if info is None or info.stages or info.jit_spec is not None or info.called_from is not None or not info.sites:
        return False
    applied = index.derived("calls-by-callee", _calls_by_callee)
    for site in info.sites:
        found = applied.get(id(site))
        if found is None:
            return False
        _, scope = found
        function = scope.enclosing_function()
        while function is not None:
            if id(function.node) in traced:
                return False
            function = function.parent.enclosing_function() if function.parent is not None else None
    return True


def _calls_by_callee(index: ModuleIndex) -> dict[int, tuple[ast.Call, Scope]]:
    """``id`` of a callee expression -> the call that applies it (``jax.vmap(f)`` -> ``jax.vmap(f)(x)``)."""
    return {id(call.func): (call, scope) for call, scope in index.nodes.get(ast.Call, ())}  # type: ignore[attr-defined]


def _trace_method_values(interpreter: Interpreter, traced: dict[int, TracedFunction]) -> None:
    """Trace the methods that transforms receive as ``obj.method``, where the receiver's value names the class."""
    discovery = _discovery(interpreter.index)
    if not discovery.value_targets:
        return
    before = set(traced)
    added = _Discovery(interpreter.index)
    added.found = traced
    for expr, spec, keywords, scope, site, call, bound_names in discovery.value_targets:
        value = interpreter.value_of(expr, scope)
        receiver = expr.value if isinstance(expr, ast.Attribute) else expr
        if isinstance(value, Transformed) and value.transform in LINEN_METHODS:
            value = value.function  # `jax.jit(model.apply)`: the module's __call__ sees the arrays after the variables
        if isinstance(value, Instance):
            method = class_model(interpreter.index, value.node).method("__call__")
            value = FunctionRef(method, 1, value) if method is not None else value
        if not isinstance(value, FunctionRef) or not isinstance(value.node, ast.FunctionDef) or value.bound > 1:
            continue
        added.add(value.node, spec, keywords, value.bound, bound_names, site, call)
        if value.bound == 1 and id(value.node) in traced:
            traced[id(value.node)].receivers.append((receiver, scope))
    added.follow_calls()
    for node_id in traced.keys() - before:
        interpreter.forget(traced[node_id].node)
    if traced.keys() - before:
        interpreter.forget_provided_params()


def _calls_through_values(index: ModuleIndex) -> frozenset[int]:
    """Functions (by ``id``) with a call only values may resolve to a function of the module.

    Those are calls of a variable (``model(x)``, ``loss_fn(params)``), of a method name some class of
    the module defines (``self.block(x)``, ``trainer.update(...)``), and of a transform's result
    (``jax.vmap(model)(x)``); calls of imports and calls the call graph resolved are not.
    """
    graph = call_graph(index)
    resolved = {id(site.call) for scope in index.functions for site in graph.calls_in(scope.node)}
    methods = {
        statement.name
        for scope in index.scopes.values()
        if scope.is_class
        for statement in scope.node.body  # type: ignore[attr-defined]
        if isinstance(statement, ast.FunctionDef)
    }
    # Attributes objects hold callables in (`self.block = Block(...)`, then `self.block(x)`), and linen apply.
    methods.update(
        name for assigned in index.derived("self-assignments", self_assignments).values() for name in assigned
    )
    methods.update(("apply", "init"))
    methods |= callback_holders.method_names()
    found: set[int] = set()
    for call, scope in index.nodes.get(ast.Call, ()):
        assert isinstance(call, ast.Call)
        function = scope.enclosing_function()
        if function is None or id(call) in resolved or id(function.node) in found:
            continue
        func = call.func
        if (
            isinstance(func, ast.Call)
            or (
                isinstance(func, ast.Name)
                and index.qualname(func, scope) is None
                and index.local_function(func.id, scope) is None
            )
            or (isinstance(func, ast.Attribute) and func.attr in methods)
        ):
            found.add(id(function.node))
    return frozenset(found)
