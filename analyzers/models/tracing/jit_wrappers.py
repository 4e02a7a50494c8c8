"""Calls to jit-compiled functions: which wrapper a call goes to, and what each argument is to it.

A *jit wrapper* is what ``jax.jit`` (or another jit-like transform: ``pjit``, ``pmap``,
``nnx.jit``, ``eqx.filter_jit``) returns. The wrappers this module recognises are:

* a ``def`` whose outermost decorator is a jit (``@jax.jit``, ``@partial(jax.jit, static_argnums=1)``);
* a name bound once to a jit call (``step = jax.jit(train_step, donate_argnums=0)``), or a ``def``
  rebound by ``f = jax.jit(f)``;
* a jit call that is called directly (``jax.jit(f)(x)``).

For each, the parameters the wrapper takes (after ``functools.partial`` has bound some), which of
them are static and which donated are read from literal ``static_argnums/static_argnames`` and
``donate_argnums/donate_argnames``. Anything that is not a literal leaves that part unknown, and
rules that need it stay silent.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from xlalens.analyzers.knowledge.transforms import FunctionSlot, TransformSpec, jit_transforms, transform_spec
from xlalens.analyzers.models.tracing.traced_functions import (
    all_params,
    declared_param_names,
    decode_transform,
    positional_params,
)
from xlalens.analyzers.semantics.calls import GatedCallFilter
from xlalens.analyzers.semantics.names import BindingKind, FunctionNode, ModuleIndex, Scope

_DONATE_KEYWORDS = ("donate_argnums", "donate_argnames")


@dataclass(frozen=True, slots=True)
class Wrapped:
    """The function expression handed to a jit, unwrapped.

    Attributes:
        target: The Python function it ends in, when it is defined in this file.
        bound_positional: Leading positional parameters already bound by ``functools.partial``.
        bound_names: Parameters bound by keyword in ``functools.partial``.
        fresh: Why evaluating the expression builds a new function object each time: ``"lambda"``,
            ``"partial"`` or ``"transform"`` (``jax.vmap(f)``, ``jax.grad(f)``); None for a name.
        name: The name of the function for messages (``loss``, ``<lambda>``).
    """

    target: FunctionNode | None
    bound_positional: int
    bound_names: frozenset[str]
    fresh: str | None
    name: str


@dataclass(frozen=True, eq=False, slots=True)
class JitWrapper:
    """A callable made by a jit-like transform.

    Attributes:
        spec: The transform (``jax.jit``).
        site: The decorator or the jit call that makes it.
        keywords: The transform's keyword arguments.
        wrapped: The function expression given to the transform; None for a decorator.
        function: The unwrapped function expression.
        params: The positional parameters the wrapper takes, when its function is known.
        static: The static parameters by name, or None when not literal.
        static_positions: The static parameters by position, or None when not literal.
        donated: The donated parameters by name, or None when not literal.
        donated_positions: The donated parameters by position, or None when not literal.
        name: How messages call it (``step``).
        scope: The scope whose code creates the wrapper (where the decorated ``def``, the
            assignment or the jit call is).
    """

    spec: TransformSpec
    site: ast.AST
    keywords: Mapping[str, ast.expr]
    wrapped: ast.expr | None
    function: Wrapped
    params: tuple[str, ...] | None
    static: frozenset[str] | None
    static_positions: frozenset[int] | None
    donated: frozenset[str] | None
    donated_positions: frozenset[int] | None
    name: str
    scope: Scope

    @property
    def static_keyword(self) -> str:
        """The keyword that made a parameter static, for messages."""
        return "static_argnames" if "static_argnames" in self.keywords else "static_argnums"

    @property
    def donate_keyword(self) -> str:
        """The keyword that made a parameter donated, for messages."""
        return "donate_argnames" if "donate_argnames" in self.keywords else "donate_argnums"


@dataclass(frozen=True, slots=True)
class BoundArgument:
    """One argument of a call to a jit wrapper.

    Attributes:
        expr: The argument expression.
        label: The parameter it fills, or ``argument N`` when the parameter is unknown.
        position: Its index among the positional arguments, None for a keyword argument.
        keyword: The keyword it is passed by, if any.
        static: Whether it is static (None when the wrapper's statics are unknown).
        donated: Whether it is donated (None when the wrapper's donations are unknown).
    """

    expr: ast.expr
    label: str
    position: int | None
    keyword: str | None
    static: bool | None
    donated: bool | None


def _literal_positions(keywords: Mapping[str, ast.expr], names: tuple[str, ...]) -> frozenset[int] | None:
    positions: set[int] = set()
    for keyword in names:
        expr = keywords.get(keyword)
        if expr is None or not keyword.endswith("argnums"):
            continue
        try:
            value = ast.literal_eval(expr)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
        items = value if isinstance(value, tuple | list) else (value,)
        if not all(type(item) is int and item >= 0 for item in items):
            return None
        positions.update(items)
    return frozenset(positions)


def _literal_names(keywords: Mapping[str, ast.expr], names: tuple[str, ...]) -> frozenset[str] | None:
    found: set[str] = set()
    for keyword in names:
        expr = keywords.get(keyword)
        if expr is None or not keyword.endswith("argnames"):
            continue
        try:
            value = ast.literal_eval(expr)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
        items = value if isinstance(value, tuple | list) else (value,)
        if not all(isinstance(item, str) for item in items):
            return None
        found.update(items)
    return frozenset(found)


class JitIndex:
    """The jit wrappers of one module, found lazily and cached.

    Args:
        index: The module's scopes and names.
    """

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self._calls: dict[int, JitWrapper | None] = {}
        self._callees: dict[int, str | None] = {}
        self._assignments: dict[int, ast.Assign] | None = None
        self._names: frozenset[str] | None = None
        self._by_name: dict[str, list[tuple[ast.Call, Scope]]] | None = None
        self._wrapper_names: frozenset[str] | None = None

    def callee(self, call: ast.Call, scope: Scope) -> str | None:
        """The qualified name ``call`` calls (``jax.random.normal``), resolved once for all the rules that ask."""
        key = id(call)
        if key not in self._callees:
            self._callees[key] = self.index.qualname(call.func, scope)
        return self._callees[key]

    def calls_named(self, name: str) -> list[tuple[ast.Call, Scope]]:
        """Calls whose callee is the name ``name`` or an attribute ``….name``, with their scopes."""
        if self._by_name is None:
            self._by_name = {}
            for call, scope in self.index.nodes.get(ast.Call, ()):
                assert isinstance(call, ast.Call)
                func = call.func
                key = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
                if key is not None:
                    self._by_name.setdefault(key, []).append((call, scope))
        return self._by_name.get(name, [])

    def wrapper_names(self) -> frozenset[str]:
        """The names that may be bound to a jit wrapper somewhere in the module: decorated functions and
        the single targets of ``name = <call>``. A called name outside this set calls no jit wrapper."""
        if self._wrapper_names is None:
            decorated = [
                scope.node.name
                for scope in self.index.functions
                if isinstance(scope.node, ast.FunctionDef | ast.AsyncFunctionDef) and scope.node.decorator_list
            ]
            assigned = [
                statement.targets[0].id
                for statement, _ in self.index.nodes[ast.Assign]
                if isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, ast.Call)
            ]
            self._wrapper_names = frozenset([*decorated, *assigned])
        return self._wrapper_names

    def names(self) -> frozenset[str]:
        """Every name used in the module, for fixes that introduce a new one."""
        if self._names is None:
            # Every name read or written is a Name node the index collected; parameters are bindings.
            used = {n.id for n, _ in self.index.nodes.get(ast.Name, ())}  # type: ignore[attr-defined]
            bound = {name for scope in self.index.scopes.values() for name in scope.bindings}
            self._names = frozenset(used | bound)
        return self._names

    def assignment(self, target: ast.AST) -> ast.Assign | None:
        """The ``=`` statement that binds the ``Name`` node ``target``, if it is one."""
        if self._assignments is None:
            self._assignments = {}
            for node, _ in self.index.nodes[ast.Assign]:
                assert isinstance(node, ast.Assign)
                for each in node.targets:
                    self._assignments[id(each)] = node
        return self._assignments.get(id(target))

    def unwrap(self, expr: ast.expr, scope: Scope) -> Wrapped:
        """Follow ``functools.partial`` and function transforms down to the Python function."""
        bound_positional = 0
        bound_names: set[str] = set()
        fresh: str | None = None
        while isinstance(expr, ast.Call):
            qualname = self.index.qualname(expr.func, scope)
            spec = transform_spec(qualname)
            if qualname == "functools.partial" and expr.args:
                bound_positional += len(expr.args) - 1
                bound_names.update(k.arg for k in expr.keywords if k.arg)
                fresh = fresh or "partial"
                expr = expr.args[0]
            elif spec is not None and spec.slot is FunctionSlot.FIRST and expr.args:
                fresh = fresh or "transform"
                expr = expr.args[0]
            else:
                return Wrapped(None, bound_positional, frozenset(bound_names), fresh or "call", "<function>")
        target: FunctionNode | None = None
        if isinstance(expr, ast.Lambda):
            target = expr
            fresh = fresh or "lambda"
        elif isinstance(expr, ast.Name):
            target = self.index.local_function(expr.id, scope)
        name = getattr(target, "name", None) or ("<lambda>" if isinstance(target, ast.Lambda) else None)
        if name is None:
            name = expr.id if isinstance(expr, ast.Name) else (expr.attr if isinstance(expr, ast.Attribute) else "?")
        return Wrapped(target, bound_positional, frozenset(bound_names), fresh, name)

    def _make(
        self,
        spec: TransformSpec,
        keywords: Mapping[str, ast.expr],
        site: ast.AST,
        wrapped: ast.expr | None,
        function: Wrapped,
        name: str,
        scope: Scope,
    ) -> JitWrapper:
        params: tuple[str, ...] | None = None
        static: frozenset[str] | None
        donated: frozenset[str] | None
        if function.target is not None:
            bound = {*function.bound_names, *positional_params(function.target)[: function.bound_positional]}
            params = tuple(positional_params(function.target)[function.bound_positional :])
            every = [p for p in all_params(function.target) if p not in bound]
            found = declared_param_names(dict(keywords), spec.static_keywords, list(params))
            static = None if found is None else frozenset(found) & frozenset(every)
            found = declared_param_names(dict(keywords), _DONATE_KEYWORDS, list(params))
            donated = None if found is None else frozenset(found) & frozenset(every)
            static_positions = None if static is None else frozenset(i for i, p in enumerate(params) if p in static)
            donated_positions = None if donated is None else frozenset(i for i, p in enumerate(params) if p in donated)
        else:
            static_positions = _literal_positions(keywords, spec.static_keywords)
            static = _literal_names(keywords, spec.static_keywords)
            donated_positions = _literal_positions(keywords, _DONATE_KEYWORDS)
            donated = _literal_names(keywords, _DONATE_KEYWORDS)
            if static_positions is None or static is None:
                static_positions = static = None
            if donated_positions is None or donated is None:
                donated_positions = donated = None
        return JitWrapper(
            spec,
            site,
            keywords,
            wrapped,
            function,
            params,
            static,
            static_positions,
            donated,
            donated_positions,
            name,
            scope,
        )

    def of_expression(self, expr: ast.expr, scope: Scope) -> JitWrapper | None:
        """The wrapper an expression builds: ``jax.jit(f, ...)``, ``jax.jit(**kw)(f)``, ``partial(jax.jit, ...)(f)``."""
        if not isinstance(expr, ast.Call) or not expr.args:
            return None
        spec = transform_spec(self.callee(expr, scope))
        keywords: Mapping[str, ast.expr]
        if spec is not None:
            keywords = {k.arg: k.value for k in expr.keywords if k.arg is not None}
        elif isinstance(expr.func, ast.Call):
            decoded = decode_transform(self.index, expr.func, scope)
            if decoded is None:
                return None
            spec, keywords = decoded
        else:
            return None
        if not spec.is_jit or spec.slot is not FunctionSlot.FIRST:
            return None
        function = self.unwrap(expr.args[0], scope)
        return self._make(spec, keywords, expr, expr.args[0], function, function.name, scope)

    def of_definition(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> JitWrapper | None:
        """The wrapper a ``def`` becomes when its outermost decorator is a jit."""
        if not node.decorator_list:
            return None
        decorator = node.decorator_list[0]
        decoded = decode_transform(self.index, decorator, scope)
        if decoded is None or not decoded[0].is_jit:
            return None
        spec, keywords = decoded
        # Under a second decorator (`@jax.jit` over `@partial(jax.vmap, ...)`) the jit wraps whatever
        # that decorator returns, whose parameters are unknown.
        target = node if len(node.decorator_list) == 1 else None
        wrapped = Wrapped(target, 0, frozenset(), None, node.name)
        return self._make(spec, keywords, decorator, None, wrapped, node.name, scope)

    def of_call(self, call: ast.Call, scope: Scope) -> JitWrapper | None:
        """The jit wrapper ``call`` calls, or None when it is not (known to be) one."""
        func = call.func
        if isinstance(func, ast.Name) and func.id not in self.wrapper_names():
            return None  # asked of every call by several analyses: most are refused here, unresolved
        key = id(call)
        if key in self._calls:
            return self._calls[key]
        found = self._resolve(call, scope)
        self._calls[key] = found
        return found

    def _resolve(self, call: ast.Call, scope: Scope) -> JitWrapper | None:
        func = call.func
        if isinstance(func, ast.Call):
            return self.of_expression(func, scope)
        if not isinstance(func, ast.Name):
            return None
        found = self.index.lookup(func.id, scope)
        if found is None:
            return None
        owner, bindings = found
        defs = [b for b in bindings if b.kind is BindingKind.DEF]
        assigns = [b for b in bindings if b.kind is BindingKind.ASSIGN]
        if len(bindings) == 1 and defs:
            node = defs[0].node
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            return self.of_definition(node, owner)
        if len(assigns) != 1 or len(defs) + len(assigns) != len(bindings) or len(defs) > 1:
            return None
        statement = self.assignment(assigns[0].node) if assigns[0].node is not None else None
        if statement is None or len(statement.targets) != 1:
            return None
        wrapper = self.of_expression(statement.value, owner)
        if wrapper is None:
            return None
        if defs:
            # `f = jax.jit(f)` rebinds the def; calls before the rebinding go to the plain function.
            rebinds = isinstance(wrapper.wrapped, ast.Name) and wrapper.wrapped.id == func.id
            if not rebinds or call.lineno <= statement.lineno:
                return None
        return wrapper


def jit_index(index: ModuleIndex) -> JitIndex:
    """The jit wrappers of the module ``index`` describes, built once per check."""
    return index.derived("jit_index", JitIndex)


def _may_make_jit_wrappers(index: ModuleIndex) -> bool:
    """Whether the module spells a jit-like transform: no module that does not can make a wrapper."""
    return any(index.mentions(name) for name in _JIT_SPELLINGS)


_JIT_SPELLINGS = frozenset(qualname.rsplit(".", 1)[1] for qualname in jit_transforms())


def _calls_jit_wrapper(call: ast.Call, scope: Scope, index: ModuleIndex) -> bool:
    """Whether ``call`` calls a jit wrapper (:meth:`JitIndex.of_call` finds one).

    The ``call_filter`` of the rules about the arguments of jitted calls: a wrapper is called by a
    local name or as ``jax.jit(f)(x)``, so no qualified name covers these calls. A call of a method
    or of a name that never holds a wrapper is refused before anything is resolved.

    Examples:
        >>> tree = ast.parse("import jax\\nstep = jax.jit(f)\\nstep(x)\\nprint(x)\\njax.jit(f)(x)")
        >>> index = ModuleIndex(tree, [ast.Call])
        >>> [calls_jit_wrapper(tree.body[k].value, index.module_scope, index) for k in (2, 3, 4)]
        [True, False, True]
    """
    if not isinstance(call.func, ast.Name | ast.Call):
        return False
    return jit_index(index).of_call(call, scope) is not None


calls_jit_wrapper = GatedCallFilter(_calls_jit_wrapper, _may_make_jit_wrappers)


def _may_build_jit_wrapper(call: ast.Call, scope: Scope, index: ModuleIndex) -> bool:
    """Whether ``call`` may build a jit wrapper (:meth:`JitIndex.of_expression` may find one): a jit-like
    transform applied to a function (``jax.jit(f)``), or a call of a call (``partial(jax.jit, ...)(f)``).

    The ``call_filter`` of the rules about where jit wrappers are made.

    Examples:
        >>> tree = ast.parse("import jax\\njax.jit(f)\\njax.vmap(f)\\njax.jit(**kw)(f)")
        >>> index = ModuleIndex(tree, [ast.Call])
        >>> [may_build_jit_wrapper(tree.body[k].value, index.module_scope, index) for k in (1, 2, 3)]
        [True, False, True]
    """
    func = call.func
    if not call.args or not isinstance(func, ast.Name | ast.Attribute | ast.Call):
        return False
    if isinstance(func, ast.Call):
        return True
    spec = transform_spec(index.qualname(func, scope))
    return spec is not None and spec.is_jit and spec.slot is FunctionSlot.FIRST


may_build_jit_wrapper = GatedCallFilter(_may_build_jit_wrapper, _may_make_jit_wrappers)


def bind_arguments(wrapper: JitWrapper, call: ast.Call) -> list[BoundArgument]:
    """The call's arguments with the parameter each fills and whether it is static or donated.

    Positional arguments after a ``*args`` are left out: their positions are unknown.
    """
    bound: list[BoundArgument] = []
    params = wrapper.params
    for position, expr in enumerate(call.args):
        if isinstance(expr, ast.Starred):
            break
        param = params[position] if params is not None and position < len(params) else None
        static = None if wrapper.static_positions is None else position in wrapper.static_positions
        donated = None if wrapper.donated_positions is None else position in wrapper.donated_positions
        if param is not None and wrapper.static is not None:
            static = static or param in wrapper.static
        if param is not None and wrapper.donated is not None:
            donated = donated or param in wrapper.donated
        label = param or f"argument {position + 1}"
        bound.append(BoundArgument(expr, label, position, None, static, donated))
    for keyword in call.keywords:
        if keyword.arg is None:
            continue
        static = None if wrapper.static is None else keyword.arg in wrapper.static
        donated = None if wrapper.donated is None else keyword.arg in wrapper.donated
        if params is not None and keyword.arg in params:
            index = params.index(keyword.arg)
            if wrapper.static_positions is not None:
                static = static or index in wrapper.static_positions
            if wrapper.donated_positions is not None:
                donated = donated or index in wrapper.donated_positions
        bound.append(BoundArgument(keyword.value, keyword.arg, None, keyword.arg, static, donated))
    return bound
