"""The shard_map model: each ``shard_map`` of a module with its mesh, its specs, its body and its calls.

Every spelling is found: ``jax.shard_map(f, mesh=…, in_specs=…, out_specs=…)``, the deprecated
``jax.experimental.shard_map.shard_map(f, mesh, in_specs, out_specs, check_rep=…)`` (whose
arguments may be positional), ``functools.partial(shard_map, mesh=…, …)`` as a decorator or
applied to a function, and ``@jax.shard_map(mesh=…, …)`` (JAX 0.10 makes ``f`` optional).

A :class:`ShardMapSite` keeps the values the interpreter computes for the mesh and the specs
(see :mod:`.sharding_values`), whether the replication check is on, the body function when it is
a local ``def`` or ``lambda``, the calls that apply the mapped function (directly, through the
name it is assigned to or decorates, or through ``jax.jit``) with their argument values, and the
collectives (``jax.lax.psum`` and the like) the body runs, also inside the module's own
functions it calls. Anything the model cannot follow is ``UNKNOWN`` or ``None``, so the rules
that read it stay silent.

Examples:
    >>> import ast
    >>> from xlalens.analyzers.models.extensions import module_interpreter
    >>> from xlalens.analyzers.semantics.interpreter import Interpreter, InterpreterExtension, ParameterValues
    >>> from xlalens.analyzers.semantics.names import ModuleIndex
    >>> source = '''
    ... import jax
    ... from jax.sharding import PartitionSpec as P
    ... mesh = jax.make_mesh((4, 2), ('x', 'y'))
    ... def body(a, b):
    ...     return jax.lax.psum(a * b, 'x')
    ... f = jax.shard_map(body, mesh=mesh, in_specs=(P('x'), P('x')), out_specs=P())
    ... out = f(jax.numpy.ones((8, 4)), jax.numpy.ones((8, 4)))
    ... '''
    >>> index = ModuleIndex(ast.parse(source), [ast.Call])
    >>> sites = ShardMapModel(index, module_interpreter(index)).sites
    >>> site = sites[0]
    >>> site.mesh.describe(), site.in_specs.items[0].describe(), site.body.name, site.check_vma
    ("Mesh('x': 4, 'y': 2, axis_types=(Explicit, Explicit))", "P('x')", 'body', True)
    >>> [(use.primitive, use.axes) for use in site.collectives]
    [('psum', ('x',))]
    >>> [arg.shape for arg in site.applications[0].args]
    [(8, 4), (8, 4)]
    >>> {name: value.shape for name, value in site.local_args.items()}
    {'a': (2, 4), 'b': (2, 4)}
"""

from __future__ import annotations

import ast
import functools
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xlalens.analyzers.models.sharding.values import MeshValue, SpecValue, axis_names
from xlalens.analyzers.semantics.interpreter import Interpreter, InterpreterExtension, ParameterValues
from xlalens.analyzers.semantics.loops import parents
from xlalens.analyzers.semantics.names import FunctionNode, ModuleIndex, Scope, positional_params
from xlalens.analyzers.semantics.values import UNKNOWN, Array, Const, FunctionRef, Seq, Value, join

if TYPE_CHECKING:
    from xlalens.analyzers.semantics.scope_view import ScopeView

SHARD_MAP = "jax.shard_map"
EXPERIMENTAL_SHARD_MAP = "jax.experimental.shard_map.shard_map"
SHARD_MAP_NAMES: frozenset[str] = frozenset({SHARD_MAP, EXPERIMENTAL_SHARD_MAP, "jax._src.shard_map.shard_map"})
"""Every qualified name ``shard_map`` is reached by."""

PARTIAL = "functools.partial"
_JIT_NAMES = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit"})
# The experimental spelling takes its arguments by position; jax.shard_map takes only f so.
_EXPERIMENTAL_PARAMS = ("f", "mesh", "in_specs", "out_specs", "check_rep")
_PUBLIC_PARAMS = ("f",)

COLLECTIVE_AXIS_POSITIONS: dict[str, int] = {
    "psum": 1,
    "pmean": 1,
    "pmax": 1,
    "pmin": 1,
    "all_gather": 1,
    "ppermute": 1,
    "psum_scatter": 1,
    "all_to_all": 1,
    "axis_index": 0,
    "axis_size": 0,
}
"""Each collective of ``jax.lax`` and the position of its ``axis_name`` argument."""

_COLLECTIVE_PREFIXES = ("jax.lax.", "jax._src.lax.parallel.")
_MAX_CALLEE_DEPTH = 4


@dataclass(frozen=True)
class CollectiveUse:
    """A collective the shard_map body runs.

    Attributes:
        call: The call, e.g. ``jax.lax.psum(x, 'x')``.
        primitive: ``psum``, ``pmean``, ``all_gather``, ``ppermute``, ``axis_index``, ``psum_scatter``,
            ``all_to_all``, ``pmax``, ``pmin`` or ``axis_size``.
        axes: The literal axis names, ``None`` when not literal.
        axis_node: The ``axis_name`` argument's expression.
    """

    call: ast.Call
    primitive: str
    axes: tuple[str, ...] | None
    axis_node: ast.expr | None


@dataclass(frozen=True)
class ShardMapApplication:
    """A call of the mapped function.

    Attributes:
        call: The call, e.g. ``f(x, y)`` where ``f = shard_map(...)``, or ``jax.jit(f)(x, y)``.
        args: The positional argument values (an ``Array`` with its shape when known).
    """

    call: ast.Call
    args: tuple[Value, ...]


@dataclass(frozen=True)
class ShardMapSite:
    """One ``shard_map`` and what it maps.

    Attributes:
        call: The ``shard_map(...)`` call, the decorator's call, or the ``functools.partial(shard_map, …)``.
        qualname: ``jax.shard_map`` or ``jax.experimental.shard_map.shard_map``.
        mesh: The mesh's value (a ``MeshValue`` when known), else ``UNKNOWN`` (also when it is
            omitted and comes from the context).
        in_specs: A ``SpecValue``, a ``Seq`` of specs (a pytree), ``Const(None)``, or ``UNKNOWN``;
            ``None`` when omitted (JAX infers them from the arguments).
        out_specs: Like ``in_specs``; ``None`` only when missing altogether.
        in_specs_node: The ``in_specs`` argument's expression.
        out_specs_node: The ``out_specs`` argument's expression.
        check_vma: Whether the replication check is on (``check_rep`` for the experimental
            spelling, and the ``check_rep`` mistakenly given to ``jax.shard_map``); ``None`` when
            not a literal.
        body: The mapped function, when it is a local ``def`` or ``lambda``.
        applications: The calls of the mapped function.
        collectives: The collectives in the body and in the module's functions it calls.
        axis_names_node: The ``axis_names=`` expression (manual axes), when given.
        scope: The scope the ``shard_map`` expression is in.
    """

    call: ast.Call
    qualname: str
    mesh: Value
    in_specs: Value | None
    out_specs: Value | None
    in_specs_node: ast.expr | None
    out_specs_node: ast.expr | None
    check_vma: bool | None
    body: FunctionNode | None
    applications: tuple[ShardMapApplication, ...]
    collectives: tuple[CollectiveUse, ...]
    axis_names_node: ast.expr | None = None
    scope: Scope | None = field(default=None, compare=False, repr=False)

    @property
    def experimental(self) -> bool:
        """Whether this is the deprecated ``jax.experimental.shard_map.shard_map``."""
        return self.qualname == EXPERIMENTAL_SHARD_MAP

    @functools.cached_property
    def param_specs(self) -> dict[str, Value] | None:
        """The spec of each positional parameter of the body (a ``SpecValue``, or ``Const(None)`` for a
        static argument), when ``in_specs`` pairs them certainly: one spec for all, or a tuple of one
        per parameter. ``None`` otherwise (omitted ``in_specs``, ``*args``, a count that differs)."""
        body, value = self.body, self.in_specs
        if body is None or value is None or body.args.vararg is not None:
            return None
        params = positional_params(body)
        if isinstance(value, SpecValue) or (isinstance(value, Const) and value.value is None):
            return dict.fromkeys(params, value)
        if isinstance(value, Seq) and not value.is_list and len(value.items) == len(params):
            return dict(zip(params, value.items, strict=True))
        return None

    @functools.cached_property
    def local_args(self) -> dict[str, Value]:
        """The per-device value of each body parameter: the global shape divided by the mesh axes its spec
        splits each dimension over (``Array`` with ``None`` for a dimension not known), joined over every
        call of the mapped function. Empty when the mesh, the specs or no argument shape is known.

        Rules and hints evaluate the body with them through
        ``Interpreter.evaluation_with(index.scope_of(site.body), site.local_args)``.
        """
        specs = self.param_specs
        if specs is None or not isinstance(self.mesh, MeshValue) or not self.applications:
            return {}
        found: dict[str, Value] = {}
        for application in self.applications:
            if len(application.args) != len(specs):
                return {}
            for (name, spec), arg in zip(specs.items(), application.args, strict=True):
                local = _local_value(arg, spec, self.mesh)
                found[name] = local if name not in found else join(found[name], local)
        return {name: value for name, value in found.items() if isinstance(value, Array)}


@dataclass
class _Arguments:
    """The arguments a shard_map receives, however it is spelled."""

    qualname: str
    positional: list[ast.expr]
    keywords: dict[str, ast.expr]
    starred: bool

    def get(self, name: str) -> ast.expr | None:
        if name in self.keywords:
            return self.keywords[name]
        params = _EXPERIMENTAL_PARAMS if self.qualname == EXPERIMENTAL_SHARD_MAP else _PUBLIC_PARAMS
        if self.starred or name not in params:
            return None
        position = params.index(name)
        return self.positional[position] if position < len(self.positional) else None


class ShardMapModel:
    """The ``shard_map`` sites of one module.

    Args:
        index: The module's scopes and names.
        interpreter: Its abstract interpreter.
    """

    def __init__(self, index: ModuleIndex, interpreter: Interpreter) -> None:
        self.index = index
        self.interpreter = interpreter
        self.scopes: dict[int, Scope] = {}
        self.sites: list[ShardMapSite] = []
        self._by_call: dict[int, ShardMapSite] = {}
        if not index.imports("jax"):
            return
        for node, scope in index.nodes.get(ast.Call, ()):
            self.scopes[id(node)] = scope
        for node, scope in index.nodes.get(ast.Call, ()):
            assert isinstance(node, ast.Call)
            site = self._site(node, scope)
            if site is not None:
                self.sites.append(site)
                self._by_call[id(node)] = site

    def site_at(self, node: ast.AST) -> ShardMapSite | None:
        """The site whose ``shard_map`` call (or partial) ``node`` is."""
        return self._by_call.get(id(node))

    def __iter__(self) -> Iterator[ShardMapSite]:
        return iter(self.sites)

    def runs_eagerly(self, body: FunctionNode) -> bool:
        """Whether every ``shard_map`` of ``body`` runs outside any trace, call by call.

        Called eagerly, ``shard_map`` runs its body on every call with each device's block (a
        ``print`` there shows the values); under ``jax.jit`` (the ``shard_map`` inside a jitted
        function, its result jitted, or called from one) the body is traced once and cached.
        """
        sites = [site for site in self.sites if site.body is body]
        traced = self.interpreter.traced
        if not sites or getattr(traced.get(id(body)), "jit_spec", None) is not None:
            return False  # no shard_map of it here, or `jax.jit` applied to it as well
        for site in sites:
            if site.scope is None or self._in_traced_function(site.scope, traced) or not site.applications:
                return False
            for application in site.applications:
                scope = self.scopes.get(id(application.call))
                func = application.call.func
                if scope is None or self._in_traced_function(scope, traced) or isinstance(func, ast.Call):
                    return False
        return True

    @staticmethod
    def _in_traced_function(scope: Scope, traced: Mapping[int, object]) -> bool:
        function = scope.enclosing_function()
        while function is not None:
            if id(function.node) in traced:
                return True
            function = function.parent.enclosing_function() if function.parent is not None else None
        return False

    def parent(self, node: ast.AST, scope: Scope) -> ast.AST | None:
        """The node ``node`` (which sits in ``scope``) is a child of; a decorator's is its ``def``."""
        return parents(self.index, scope).get(id(node))

    # -- finding sites ----------------------------------------------------------------------------

    def _shard_map_name(self, expr: ast.expr, scope: Scope) -> str | None:
        qualname = self.index.qualname(expr, scope) if isinstance(expr, ast.Name | ast.Attribute) else None
        if qualname not in SHARD_MAP_NAMES:
            return None
        return EXPERIMENTAL_SHARD_MAP if qualname == EXPERIMENTAL_SHARD_MAP else SHARD_MAP

    def _site(self, node: ast.Call, scope: Scope) -> ShardMapSite | None:
        qualname = self._shard_map_name(node.func, scope)
        if qualname is not None:
            arguments = _Arguments(
                qualname,
                list(node.args),
                {k.arg: k.value for k in node.keywords if k.arg is not None},
                any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords),
            )
        elif self.index.qualname(node.func, scope) == PARTIAL and node.args:
            qualname = self._shard_map_name(node.args[0], scope)
            if qualname is None:
                return None
            rest = node.args[1:]
            arguments = _Arguments(
                qualname,
                list(rest),
                {k.arg: k.value for k in node.keywords if k.arg is not None},
                any(isinstance(a, ast.Starred) for a in rest) or any(k.arg is None for k in node.keywords),
            )
        else:
            return None
        function_expr = arguments.get("f")
        mapped_function: FunctionNode | None = None
        # What evaluates to the mapped function: the call itself, the def it decorates, or the
        # call that applies a decorator-making call to a function; None when the call only
        # makes a decorator that is stored away (or a partial that binds f).
        mapped_node: ast.AST | None = None
        body_function = function_expr
        partial = node.func is not None and self.index.qualname(node.func, scope) == PARTIAL
        if function_expr is not None:
            mapped_node = None if partial else node
        elif not arguments.starred:
            parent = self.parent(node, scope)
            if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                d is node for d in parent.decorator_list
            ):
                mapped_function = parent if parent.decorator_list[-1] is node else None
                mapped_node = parent
            elif isinstance(parent, ast.Call) and parent.func is node and len(parent.args) == 1:
                body_function = parent.args[0]
                mapped_node = parent
        if mapped_function is None and body_function is not None:
            mapped_function = self._function(body_function, scope)
        check_vma = self._check_vma(arguments, scope)
        in_expr = arguments.get("in_specs")
        out_expr = arguments.get("out_specs")
        mesh_expr = arguments.get("mesh")
        return ShardMapSite(
            call=node,
            qualname=qualname,
            mesh=self.interpreter.value_of(mesh_expr, scope) if mesh_expr is not None else UNKNOWN,
            in_specs=self.interpreter.value_of(in_expr, scope) if in_expr is not None else None,
            out_specs=self.interpreter.value_of(out_expr, scope) if out_expr is not None else None,
            in_specs_node=in_expr,
            out_specs_node=out_expr,
            check_vma=check_vma,
            body=mapped_function,
            applications=tuple(self._applications(mapped_node, node, scope)) if mapped_node is not None else (),
            collectives=tuple(self._collectives(mapped_function)) if mapped_function is not None else (),
            axis_names_node=arguments.keywords.get("axis_names"),
            scope=scope,
        )

    def _check_vma(self, arguments: _Arguments, scope: Scope) -> bool | None:
        name = "check_rep" if arguments.qualname == EXPERIMENTAL_SHARD_MAP else "check_vma"
        # check_rep= given to jax.shard_map is a TypeError (JX508), but it says what was meant.
        expr = arguments.get(name) or arguments.keywords.get("check_rep")
        if expr is None:
            return None if arguments.starred else True
        value = self.interpreter.value_of(expr, scope)
        if isinstance(value, Const) and isinstance(value.value, bool):
            return value.value
        return None

    def _function(self, expr: ast.expr, scope: Scope) -> FunctionNode | None:
        """The local ``def`` or ``lambda`` an expression names, or that a factory of the module returns
        (``stage_forward(cfg)`` returning its nested ``forward``)."""
        if isinstance(expr, ast.Lambda):
            return expr
        if isinstance(expr, ast.Name):
            return self.index.local_function(expr.id, scope)
        if isinstance(expr, ast.Call):
            value = self.interpreter.value_of(expr, scope)
            if isinstance(value, FunctionRef) and not value.bound:
                return value.node
        return None

    # -- applications -----------------------------------------------------------------------------

    def _applications(self, mapped: ast.AST, site: ast.Call, scope: Scope) -> Iterator[ShardMapApplication]:
        """Calls of the function ``mapped`` evaluates to (a decorated def, or a ``shard_map(f, …)`` call)."""
        if isinstance(mapped, ast.FunctionDef | ast.AsyncFunctionDef):
            # Only jit may wrap the mapped function from outside: it passes the arguments through.
            position = next(i for i, d in enumerate(mapped.decorator_list) if d is site)
            if not all(self._is_jit(d, scope) for d in mapped.decorator_list[:position]):
                return
            yield from self._calls_of_binding(mapped.name, mapped, scope)
            return
        parent = self.parent(mapped, scope)
        if isinstance(parent, ast.Call) and parent.func is mapped:
            application = self._application(parent)
            if application is not None:
                yield application
            return
        if isinstance(parent, ast.Call) and self._is_jit(parent.func, scope) and parent.args[:1] == [mapped]:
            grand = self.parent(parent, scope)
            if isinstance(grand, ast.Call) and grand.func is parent:
                application = self._application(grand)
                if application is not None:
                    yield application
            elif isinstance(grand, ast.Assign) and len(grand.targets) == 1 and isinstance(grand.targets[0], ast.Name):
                # step = jax.jit(jax.shard_map(f, ...)); step(x): jit passes the arguments through.
                target = grand.targets[0]
                yield from self._calls_of_binding(target.id, target, scope)
            return
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            target = parent.targets[0]
            yield from self._calls_of_binding(target.id, target, scope)

    def _is_jit(self, expr: ast.expr, scope: Scope) -> bool:
        return isinstance(expr, ast.Name | ast.Attribute) and self.index.qualname(expr, scope) in _JIT_NAMES

    def _calls_of_binding(self, name: str, binding_node: ast.AST, scope: Scope) -> Iterator[ShardMapApplication]:
        """Calls of ``name`` (or of ``jax.jit(name)``) where it refers only to the binding ``binding_node``."""
        for node, call_scope in self.index.derived("calls-by-callee-name", _calls_by_callee_name).get(name, ()):
            func = node.func
            if isinstance(func, ast.Call) and not (self._is_jit(func.func, call_scope) and len(func.args) == 1):
                continue
            found = self.index.lookup(name, call_scope)
            if found is None or len(found[1]) != 1 or found[1][0].node is not binding_node:
                continue
            application = self._application(node)
            if application is not None:
                yield application

    def _application(self, call: ast.Call) -> ShardMapApplication | None:
        if call.keywords or any(isinstance(arg, ast.Starred) for arg in call.args):
            return None
        scope = self.scopes.get(id(call), self.index.module_scope)
        return ShardMapApplication(call, tuple(self.interpreter.value_of(arg, scope) for arg in call.args))

    # -- collectives ------------------------------------------------------------------------------

    def _collectives(self, function: FunctionNode) -> Iterator[CollectiveUse]:
        """Collectives in ``function`` and in the module's functions it calls (a few levels deep)."""
        seen: set[int] = set()
        pending: list[tuple[FunctionNode, int]] = [(function, 0)]
        while pending:
            current, depth = pending.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            roots: list[ast.AST] = [current.body] if isinstance(current, ast.Lambda) else list(current.body)
            for root in roots:
                for node in ast.walk(root):
                    if not isinstance(node, ast.Call):
                        continue
                    scope = self.scopes.get(id(node))
                    if scope is None:
                        continue
                    use = self._collective(node, scope)
                    if use is not None:
                        yield use
                    elif depth < _MAX_CALLEE_DEPTH and isinstance(node.func, ast.Name):
                        callee = self.index.local_function(node.func.id, scope)
                        if callee is not None:
                            pending.append((callee, depth + 1))

    def _collective(self, call: ast.Call, scope: Scope) -> CollectiveUse | None:
        qualname = self.index.qualname(call.func, scope) if isinstance(call.func, ast.Name | ast.Attribute) else None
        if qualname is None or not qualname.startswith(_COLLECTIVE_PREFIXES):
            return None
        primitive = qualname.rsplit(".", 1)[1]
        position = COLLECTIVE_AXIS_POSITIONS.get(primitive)
        if position is None:
            return None
        axis_node: ast.expr | None = next((k.value for k in call.keywords if k.arg == "axis_name"), None)
        if axis_node is None and not any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
            axis_node = call.args[position] if position < len(call.args) else None
        axes = None
        if axis_node is not None:
            axes = axis_names(self.interpreter.value_of(axis_node, scope))
        return CollectiveUse(call, primitive, axes, axis_node)


def _calls_by_callee_name(index: ModuleIndex) -> dict[str, list[tuple[ast.Call, Scope]]]:
    """The calls ``name(...)`` and ``wrapper(name)(...)`` of the module, by ``name`` (one pass per check)."""
    found: dict[str, list[tuple[ast.Call, Scope]]] = {}
    for node, scope in index.nodes.get(ast.Call, ()):
        assert isinstance(node, ast.Call)
        func = node.func
        if isinstance(func, ast.Call) and len(func.args) == 1:
            func = func.args[0]
        if isinstance(func, ast.Name):
            found.setdefault(func.id, []).append((node, scope))
    return found


def shard_map_model(index: ModuleIndex, interpreter: Interpreter) -> ShardMapModel:
    """The shard_map model of the module ``index`` describes, built once per check."""
    return index.derived("shard_map", lambda owner: ShardMapModel(owner, interpreter))


def _mapped_parameters(interpreter: Interpreter) -> ParameterValues:
    """Each mapped body's parameters as one device's blocks of its arguments."""
    return {
        id(site.body): site.local_args
        for site in shard_map_model(interpreter.index, interpreter)
        if site.body is not None and site.local_args
    }


SHARD_MAP_PARAMETERS = InterpreterExtension("shard_map", parameters=_mapped_parameters)
"""What the interpreter learns from this module: inside ``shard_map`` each parameter is one device's
block of the argument (its global shape divided by the mesh axes its spec names)."""


def shard_map_sites(ctx: ScopeView) -> list[ShardMapSite]:
    """Every ``shard_map`` of the file being checked (cached per check)."""
    return shard_map_model(ctx.index, ctx.interpreter).sites


def returned_expressions(function: FunctionNode) -> list[ast.expr] | None:
    """The expressions ``function`` returns (its own ``return`` statements, not nested functions').

    ``None`` when some path returns nothing (a bare ``return``) or the body has no ``return``.

    Examples:
        >>> tree = ast.parse("def f(a):\\n    if a:\\n        return a, a\\n    return a")
        >>> [ast.unparse(e) for e in returned_expressions(tree.body[0])]
        ['(a, a)', 'a']
        >>> returned_expressions(ast.parse("lambda a: a * 2").body[0].value)[0].__class__.__name__
        'BinOp'
    """
    if isinstance(function, ast.Lambda):
        return [function.body]
    found: list[ast.expr] = []
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        if isinstance(node, ast.Return):
            if node.value is None:
                return None
            found.append(node.value)
            continue
        stack.extend(ast.iter_child_nodes(node))
    if not found:
        return None
    found.sort(key=lambda e: (e.lineno, e.col_offset))
    return found


def spec_text(value: Value | None) -> str:
    """A spec pytree as JAX prints it: ``P('x')``, ``(P('x'), P())``, ``[P('x')]``, ``None``.

    Examples:
        >>> from xlalens.analyzers.models.sharding.values import SpecEntry
        >>> from xlalens.analyzers.semantics.values import Seq
        >>> spec_text(Seq((SpecValue((SpecEntry("axes", ("x",)),)), Const(None))))
        "(P('x'), None)"
    """
    if isinstance(value, SpecValue):
        return value.describe()
    if isinstance(value, Const) and value.value is None:
        return "None"
    if isinstance(value, Seq):
        items = ", ".join(spec_text(item) for item in value.items)
        if value.is_list:
            return f"[{items}]"
        return f"({items}{',' if len(value.items) == 1 else ''})"
    return "…"


def local_shape(shape: tuple[int | None, ...], spec: SpecValue, mesh: MeshValue) -> tuple[int | None, ...] | None:
    """The per-device shape of an array of ``shape`` split by ``spec`` over ``mesh``.

    ``None`` for a dimension whose size, or whose mesh axes' sizes, are not known, or that does
    not divide evenly (JAX rejects that); ``None`` altogether when the spec is longer than the rank.

    Examples:
        >>> from xlalens.analyzers.models.sharding.values import SpecEntry
        >>> mesh = MeshValue("make_mesh", ("x", "y"), (4, 2), None)
        >>> local_shape((8, 6), SpecValue((SpecEntry("axes", ("x", "y")),)), mesh)
        (1, 6)
        >>> local_shape((8, 6), SpecValue((SpecEntry("replicated"), SpecEntry("axes", ("y",)))), mesh)
        (8, 3)
        >>> local_shape((6,), SpecValue((SpecEntry("axes", ("x",)),)), mesh)
        (None,)
    """
    entries = spec.entries
    if entries is None or len(entries) > len(shape):
        return None
    local: list[int | None] = list(shape)
    for dim, entry in enumerate(entries):
        if entry.kind == "replicated":
            continue
        sizes = [mesh.size(axis) for axis in entry.axes] if entry.kind == "axes" else [None]
        size = shape[dim]
        if size is None or any(s is None for s in sizes):
            local[dim] = None
            continue
        factor = math.prod(s for s in sizes if s is not None)
        local[dim] = size // factor if factor and size % factor == 0 else None
    return tuple(local)


def _local_value(arg: Value, spec: Value, mesh: MeshValue) -> Value:
    """A body parameter's per-device value, from the global argument and its spec."""
    if not isinstance(arg, Array) or arg.shape is None:
        return UNKNOWN
    if isinstance(spec, Const) and spec.value is None:
        return arg
    if not isinstance(spec, SpecValue):
        return UNKNOWN
    shape = local_shape(arg.shape, spec, mesh)
    if shape is None:
        return UNKNOWN
    return Array(shape, arg.dtype, arg.weak_type, True, "jax")
