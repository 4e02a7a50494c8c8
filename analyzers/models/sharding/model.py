"""Where a PartitionSpec meets a mesh and an array: the places JAX checks a sharding.

:mod:`.sharding_values` gives each mesh, spec and ``NamedSharding`` a value; this module finds
where they are used, once per check:

- **Specs on a mesh** (:class:`SpecOnMesh`): ``NamedSharding(mesh, spec)``, which JAX checks as
  soon as it is built (every axis in the mesh, each axis once), and a bare ``P(...)`` handed to
  ``jax.device_put``, ``jax.reshard`` or ``jax.lax.with_sharding_constraint`` inside ``with
  jax.set_mesh(mesh):`` (or after a module-level ``jax.set_mesh(mesh)``), where JAX resolves it
  against that mesh. The legacy ``with mesh:``
  only resolves specs for ``with_sharding_constraint`` (``device_put`` then asks for
  ``jax.set_mesh``).
- **Placements** (:class:`Placement`): an array of known shape given a sharding at one of those
  calls, passed to a ``jax.jit(f, in_shardings=...)`` wrapper (bare specs resolved by
  ``jax.set_mesh`` too), or to a ``shard_map``-ped function (its ``in_specs``, through
  :mod:`.shard_map_model`). Each placement says whether JAX checks the spec's length and the
  divisibility of each sharded dimension there: a ``with_sharding_constraint`` inside a trace
  allows uneven shards on ``Auto`` meshes, ``reshard`` refuses ``Auto`` axes and
  ``with_sharding_constraint`` ``Explicit`` ones before they look at divisibility, so those
  combinations are left alone.

Only what the interpreter knows for certain takes part: a mesh whose names or sizes are not
literal, a spec built with ``P(*axes)``, an array of unknown shape — all stay silent.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from xlalens.analyzers.models.sharding.shard_map import ShardMapSite, shard_map_model
from xlalens.analyzers.models.sharding.values import MESH_CONSTRUCTOR_NAMES, MeshValue, NamedShardingValue, SpecValue
from xlalens.analyzers.models.tracing.jit_wrappers import JitWrapper, jit_index
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.loops import parents
from xlalens.analyzers.semantics.names import ModuleIndex, Scope
from xlalens.analyzers.semantics.values import Array, CallArguments, Const, Dict, Seq, Value
from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.fields import CalculatorInputError
from xlalens.explainers.calculators.shard_shape import (
    ShardShapeInputs,
    ShardShapeResult,
    SpecEntry,
    compute_shard_shape,
    spec_repr,
)

DEVICE_PUT = frozenset({"jax.device_put"})
RESHARD = frozenset({"jax.reshard", "jax.sharding.reshard"})
WITH_SHARDING_CONSTRAINT = frozenset({"jax.lax.with_sharding_constraint"})
SET_MESH = frozenset({"jax.set_mesh", "jax.sharding.set_mesh"})
NAMED_SHARDING = frozenset({"jax.sharding.NamedSharding", "jax.NamedSharding", "jax._src.named_sharding.NamedSharding"})
PLACING_CALLS: frozenset[str] = DEVICE_PUT | RESHARD | WITH_SHARDING_CONSTRAINT
"""Calls that hand an array a sharding."""

# Which mesh context resolves a bare PartitionSpec for each API ("mesh" is the legacy `with mesh:`).
_CONTEXTS_RESOLVING = {
    "device_put": {"set_mesh"},
    "reshard": {"set_mesh"},
    "jit": {"set_mesh"},
    "with_sharding_constraint": {"set_mesh", "mesh"},
}


@dataclass(frozen=True, slots=True)
class SpecOnMesh:
    """A spec JAX resolves against a mesh.

    Attributes:
        call: The call that makes JAX resolve it: ``NamedSharding(...)`` or the API call a bare spec
            is passed to.
        anchor: Where a finding about the spec goes (the spec argument of the call).
        mesh: The mesh.
        spec: The spec.
        context: The ``with`` statement or ``jax.set_mesh`` call that supplies the mesh of a bare spec.
        api: ``NamedSharding``, or the API a bare spec is given to (``device_put``…).
    """

    call: ast.Call
    anchor: ast.expr
    mesh: MeshValue
    spec: SpecValue
    context: ast.AST | None = None
    api: str = "NamedSharding"


@dataclass(frozen=True, slots=True)
class Placement:
    """An array of known shape given a sharding.

    Attributes:
        call: The call where JAX checks it: ``jax.device_put(x, s)``, ``jax.reshard``,
            ``with_sharding_constraint``, or the call of a jitted function (``step(x)``).
        api: ``device_put``, ``reshard``, ``with_sharding_constraint``, ``jit`` (an argument against
            ``in_shardings``), ``jit-out`` (the result against ``out_shardings``) or ``shard_map``.
        site: The call the rule is handed for this placement: ``call`` itself, for ``jit`` the
            ``jax.jit(...)``/``partial(jax.jit, ...)`` call that gives ``in_shardings``, for
            ``shard_map`` the ``shard_map(...)`` (or ``partial(shard_map, ...)``) call.
        array: The array's value.
        array_node: The array argument.
        sharding_node: The sharding argument (or ``in_shardings``, ``in_specs``).
        mesh: The mesh.
        spec: The spec.
        checks_rank: Whether JAX rejects a spec longer than the array's rank here.
        checks_divisibility: Whether JAX rejects an uneven split here.
    """

    call: ast.Call
    api: str
    site: ast.Call
    array: Array
    array_node: ast.expr
    sharding_node: ast.expr
    mesh: MeshValue
    spec: SpecValue
    checks_rank: bool
    checks_divisibility: bool

    @property
    def shape(self) -> tuple[int, ...] | None:
        """The array's shape when every dimension is known."""
        shape = self.array.shape
        if shape is None or any(size is None for size in shape):
            return None
        return tuple(size for size in shape if size is not None)


_BLOCK_FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")
"""The fields that hold statements (or except clauses and match cases, which do), in field order."""


class ShardingModel:
    """The specs, meshes and placements of one module.

    Args:
        index: The module's scopes and names.
        interpreter: Its abstract interpreter.
    """

    def __init__(self, index: ModuleIndex, interpreter: Interpreter) -> None:
        self.index = index
        self.interpreter = interpreter
        self.specs: dict[int, list[SpecOnMesh]] = {}
        self.placements: dict[int, list[Placement]] = {}
        self.contexts: dict[int, tuple[str, MeshValue, ast.AST]] = {}
        self._jit = jit_index(index)
        if not any(index.mentions(name) for name in MESH_CONSTRUCTOR_NAMES):
            # Every spec and placement is judged against a mesh the module builds: without one,
            # nothing here can be known, and the sharding calls need not be evaluated.
            return
        if self._may_enter_mesh_contexts():
            self._collect_contexts(index.tree.body, index.module_scope, None, top_level=True)
        for node, scope in index.nodes.get(ast.Call, ()):
            assert isinstance(node, ast.Call)
            self._visit_call(node, scope)
        for site in shard_map_model(index, interpreter).sites:
            self._shard_map(site)

    # -- mesh contexts --------------------------------------------------------------------------

    def _collect_contexts(
        self, body: list[ast.stmt], scope: Scope, context: tuple[str, MeshValue, ast.AST] | None, *, top_level: bool
    ) -> None:
        """Record, for every call under a ``with`` of a mesh, which mesh resolves its bare specs."""
        for statement in body:
            call = statement.value if isinstance(statement, ast.Expr) else None
            if top_level and isinstance(call, ast.Call) and self._jit.callee(call, scope) in SET_MESH:
                mesh = self._set_mesh_argument(call, scope)
                global_ok = mesh is not None and self._set_mesh_only_at_top_level()
                context = ("set_mesh", mesh, call) if global_ok and mesh is not None else None
                continue
            inner = context
            if isinstance(statement, ast.With | ast.AsyncWith):
                for item in statement.items:
                    changes, found = self._with_context(item.context_expr, scope, statement)
                    inner = found if changes else inner
            self._mark(statement, scope, inner, top_level=top_level)

    def _mark(
        self, node: ast.AST, scope: Scope, context: tuple[str, MeshValue, ast.AST] | None, *, top_level: bool
    ) -> None:
        if context is None:
            self._find_contexts_below(node, scope, top_level=top_level)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
                # A function body runs when it is called, not where it is defined: no context.
                inner_scope = self.index.scope_of(child) or scope
                body = child.body if isinstance(child.body, list) else []
                self._collect_contexts(body, inner_scope, None, top_level=False)
                continue
            if isinstance(child, ast.stmt):
                self._collect_contexts([child], scope, context, top_level=False)
                continue
            if context is not None and isinstance(child, ast.Call):
                self.contexts[id(child)] = context
            self._mark(child, scope, context, top_level=top_level)

    def _may_enter_mesh_contexts(self) -> bool:
        """Whether some call may run under a mesh: the module has a ``with`` statement (or the index did not
        look for them), or a module-level ``jax.set_mesh(...)`` statement."""
        for statement_type in (ast.With, ast.AsyncWith):
            found = self.index.nodes.get(statement_type)
            if found is None or found:
                return True
        scope = self.index.module_scope
        return any(
            isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Call)
            and self._jit.callee(statement.value, scope) in SET_MESH
            for statement in self.index.tree.body
        )

    def _find_contexts_below(self, node: ast.AST, scope: Scope, *, top_level: bool) -> None:
        """:meth:`_mark` outside any mesh context: only the statements below ``node`` can open one.

        An expression holds no statement, so only the blocks of ``node`` are entered (in the order
        ``ast.iter_child_nodes`` gives them): a check walks the statements, not every node.
        """
        for field in _BLOCK_FIELDS:
            block = getattr(node, field, None)
            if type(block) is not list:
                continue
            for child in block:
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    self._collect_contexts(child.body, self.index.scope_of(child) or scope, None, top_level=False)
                elif isinstance(child, ast.stmt):
                    self._collect_contexts([child], scope, None, top_level=False)
                else:  # an except clause or a match case, whose body holds statements
                    self._mark(child, scope, None, top_level=top_level)

    def _set_mesh_argument(self, call: ast.Call, scope: Scope) -> MeshValue | None:
        if self._jit.callee(call, scope) not in SET_MESH or len(call.args) != 1 or call.keywords:
            return None
        mesh = self.interpreter.value_of(call.args[0], scope)
        return mesh if _known_mesh(mesh) and isinstance(mesh, MeshValue) else None

    def _set_mesh_only_at_top_level(self) -> bool:
        """Whether every ``jax.set_mesh`` call is a module-level statement or a ``with`` item, so that a
        module-level one holds until the next (a call in a function or a branch could change it anytime)."""
        allowed: set[int] = set()
        for statement in self.index.tree.body:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
                allowed.add(id(statement.value))
        for node in ast.walk(self.index.tree):
            if isinstance(node, ast.With | ast.AsyncWith):
                allowed.update(id(item.context_expr) for item in node.items)
        return all(
            id(call) in allowed
            for call, scope in self.index.nodes.get(ast.Call, ())
            if isinstance(call, ast.Call) and self._jit.callee(call, scope) in SET_MESH
        )

    def _with_context(
        self, expr: ast.expr, scope: Scope, statement: ast.AST
    ) -> tuple[bool, tuple[str, MeshValue, ast.AST] | None]:
        """Whether a ``with`` item may change the mesh context, and the context it opens when known.

        ``open(...)`` and other library context managers without "mesh" in their name change
        nothing; a mesh or ``jax.set_mesh`` of a known mesh opens that one; anything else (a
        local helper, a mesh not known) may open an unknown one, so no bare spec inside is resolved.
        """
        if isinstance(expr, ast.Call):
            qualname = self._jit.callee(expr, scope)
            if qualname in SET_MESH:
                mesh = self._set_mesh_argument(expr, scope)
                return True, (("set_mesh", mesh, statement) if mesh is not None else None)
            return qualname is None or "mesh" in qualname.lower(), None
        value = self.interpreter.value_of(expr, scope)
        if _known_mesh(value) and isinstance(value, MeshValue) and value.constructor != "AbstractMesh":
            return True, ("mesh", value, statement)
        return not isinstance(value, Const | Seq | Array), None

    # -- calls ----------------------------------------------------------------------------------

    def _visit_call(self, call: ast.Call, scope: Scope) -> None:
        qualname = self._jit.callee(call, scope)
        if qualname in NAMED_SHARDING:
            self._named_sharding(call, scope)
        elif qualname in PLACING_CALLS:
            self._placing_call(call, scope, qualname)
        wrapper = self._jit.of_call(call, scope)
        if wrapper is not None and "in_shardings" in wrapper.keywords:
            self._jit_call(call, scope, wrapper)
        if wrapper is not None and "out_shardings" in wrapper.keywords:
            self._jit_result(call, scope, wrapper)

    def _named_sharding(self, call: ast.Call, scope: Scope) -> None:
        value = self.interpreter.value_of(call, scope)
        if not isinstance(value, NamedShardingValue):
            return
        mesh, spec = value.mesh, value.spec
        bound = CallArguments(call, [], {})
        anchor = bound.expr(1, "spec")
        if not _known_mesh(mesh) or not isinstance(spec, SpecValue) or spec.entries is None or anchor is None:
            return
        assert isinstance(mesh, MeshValue)
        self.specs.setdefault(id(call), []).append(SpecOnMesh(call, anchor, mesh, spec))

    def _resolve(self, value: Value, call: ast.Call, api: str) -> tuple[MeshValue, SpecValue, bool] | None:
        """The mesh and spec of a sharding argument; the flag says the mesh came from a context."""
        if isinstance(value, NamedShardingValue):
            mesh, spec = value.mesh, value.spec
            if _known_mesh(mesh) and isinstance(spec, SpecValue) and spec.entries is not None:
                assert isinstance(mesh, MeshValue)
                return mesh, spec, False
            return None
        if isinstance(value, SpecValue) and value.entries is not None:
            context = self.contexts.get(id(call))
            if context is not None and context[0] in _CONTEXTS_RESOLVING.get(api, ()):
                return context[1], value, True
        return None

    def _placing_call(self, call: ast.Call, scope: Scope, qualname: str) -> None:
        api = (
            "device_put" if qualname in DEVICE_PUT else "reshard" if qualname in RESHARD else "with_sharding_constraint"
        )
        keyword = (
            "device" if api == "device_put" else "shardings" if api == "with_sharding_constraint" else "out_shardings"
        )
        bound = CallArguments(call, [], {})
        array_node, sharding_node = bound.expr(0, "x"), bound.expr(1, keyword)
        if array_node is None or sharding_node is None:
            return
        array_value = self.interpreter.value_of(array_node, scope)
        if isinstance(array_node, ast.Name):
            # `{k: jax.device_put(v, sharding) for k, v in batch.items()}`: each of the dict's arrays
            # meets the same sharding, one per iteration.
            array_value = self._comprehension_items(array_node, scope) or array_value
        sharding_value = self.interpreter.value_of(sharding_node, scope)
        traced = self._in_trace(scope)
        for array, sharding, node in _pairs(array_value, sharding_value, array_node):
            resolved = self._resolve(sharding, call, api)
            if resolved is None:
                continue
            mesh, spec, from_context = resolved
            if from_context:
                self.specs.setdefault(id(call), []).append(
                    SpecOnMesh(call, sharding_node, mesh, spec, self.contexts[id(call)][2], api)
                )
            if not isinstance(array, Array):
                continue
            checks_rank, checks_divisibility = _checks(api, mesh, traced)
            self.placements.setdefault(id(call), []).append(
                Placement(call, api, call, array, node, sharding_node, mesh, spec, checks_rank, checks_divisibility)
            )

    def _comprehension_items(self, name: ast.Name, scope: Scope) -> Seq | None:
        """The values ``name`` takes in the comprehension around it, when it iterates over a known dict's
        ``.values()`` or ``.items()``, or over a known list, with no filter: one item per iteration."""
        parent_of = parents(self.index, scope)
        node = parent_of.get(id(name))
        while node is not None and not isinstance(node, ast.stmt):
            if isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
                for generator in node.generators:
                    items = self._iterated(generator, name.id, scope)
                    if items is not None:
                        return items
            node = parent_of.get(id(node))
        return None

    def _iterated(self, generator: ast.comprehension, name: str, scope: Scope) -> Seq | None:
        if generator.ifs or generator.is_async:
            return None
        target, source = generator.target, generator.iter
        method = source.func.attr if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) else None
        if isinstance(target, ast.Name) and target.id == name and method is None:
            iterated = self.interpreter.value_of(source, scope)
            return iterated if isinstance(iterated, Seq) and iterated.items else None
        values_of = (isinstance(target, ast.Name) and target.id == name and method == "values") or (
            isinstance(target, ast.Tuple)
            and len(target.elts) == 2
            and isinstance(target.elts[1], ast.Name)
            and target.elts[1].id == name
            and method == "items"
        )
        if not values_of or not isinstance(source, ast.Call) or source.args or source.keywords:
            return None
        assert isinstance(source.func, ast.Attribute)
        mapping = self.interpreter.value_of(source.func.value, scope)
        return Seq(tuple(mapping.values)) if isinstance(mapping, Dict) and mapping.values else None

    def _jit_call(self, call: ast.Call, scope: Scope, wrapper: JitWrapper) -> None:
        site = wrapper.site
        shardings = wrapper.keywords["in_shardings"]
        if not isinstance(site, ast.Call) or call is site or call.keywords:
            return
        # in_shardings leaves static arguments out; only calls without any pair one-to-one.
        if wrapper.static_positions != frozenset() or wrapper.static != frozenset():
            return
        if wrapper.function.bound_positional:
            return
        if any(isinstance(arg, ast.Starred) for arg in call.args):
            return
        value = self.interpreter.value_of(shardings, wrapper.scope)
        if isinstance(value, Seq):
            if len(value.items) != len(call.args):
                return
            per_argument = list(value.items)
        else:
            per_argument = [value] * len(call.args)
        for arg, sharding in zip(call.args, per_argument, strict=True):
            array = self.interpreter.value_of(arg, scope)
            resolved = self._resolve(sharding, call, "jit")
            if resolved is None or not isinstance(array, Array):
                continue
            mesh, spec, _ = resolved
            self.placements.setdefault(id(site), []).append(
                Placement(call, "jit", site, array, arg, shardings, mesh, spec, True, True)
            )

    def _jit_result(self, call: ast.Call, scope: Scope, wrapper: JitWrapper) -> None:
        """A jitted call's single array result against its one ``out_shardings`` sharding."""
        site = wrapper.site
        if not isinstance(site, ast.Call) or call is site:
            return
        shardings = wrapper.keywords["out_shardings"]
        resolved = self._resolve(self.interpreter.value_of(shardings, wrapper.scope), call, "jit")
        result = self.interpreter.value_of(call, scope)
        if resolved is None or not isinstance(result, Array) or result.traced:
            return
        mesh, spec, _ = resolved
        self.placements.setdefault(id(site), []).append(
            Placement(call, "jit-out", site, result, call, shardings, mesh, spec, True, True)
        )

    def _shard_map(self, site: ShardMapSite) -> None:
        """The arguments of each call of a mapped function, split by ``in_specs`` (one spec for all, or one each)."""
        mesh, specs = site.mesh, site.in_specs
        if not _known_mesh(mesh) or specs is None or site.in_specs_node is None:
            return
        assert isinstance(mesh, MeshValue)
        for application in site.applications:
            args = application.args
            if isinstance(specs, SpecValue):
                per_argument: list[Value] = [specs] * len(args)
            elif isinstance(specs, Seq) and not specs.is_list and len(specs.items) == len(args):
                per_argument = list(specs.items)
            else:
                continue
            for array, spec, node in zip(args, per_argument, application.call.args, strict=True):
                if isinstance(array, Array) and isinstance(spec, SpecValue) and spec.entries is not None:
                    self.placements.setdefault(id(site.call), []).append(
                        Placement(
                            application.call,
                            "shard_map",
                            site.call,
                            array,
                            node,
                            site.in_specs_node,
                            mesh,
                            spec,
                            True,
                            True,
                        )
                    )

    def _in_trace(self, scope: Scope) -> bool | None:
        """Whether code in ``scope`` runs under a trace: ``False`` at module level, ``None`` when unsure."""
        function = scope.enclosing_function()
        if function is None:
            return False
        return True if id(function.node) in self.interpreter.traced else None

    # -- lookups --------------------------------------------------------------------------------

    def specs_at(self, call: ast.AST) -> list[SpecOnMesh]:
        """The specs the call ``call`` makes JAX resolve against a mesh."""
        return self.specs.get(id(call), [])

    def placements_at(self, call: ast.AST) -> list[Placement]:
        """The placements a rule handed ``call`` reports on."""
        return self.placements.get(id(call), [])

    def all_placements(self) -> Iterator[Placement]:
        """Every placement of the module."""
        for placements in self.placements.values():
            yield from placements


def calculator_spec(spec: SpecValue) -> tuple[SpecEntry, ...] | None:
    """The spec as the shard-shape calculator takes it, or ``None`` with an entry that is not literal.

    Examples:
        >>> from xlalens.analyzers.models.sharding.values import SpecEntry as Entry
        >>> calculator_spec(SpecValue((Entry("axes", ("x", "y")), Entry("replicated"), Entry("axes", ("z",)))))
        (('x', 'y'), None, 'z')
    """
    if spec.entries is None:
        return None
    entries: list[SpecEntry] = []
    for entry in spec.entries:
        if entry.kind == "replicated":
            entries.append(None)
        elif entry.kind == "axes":
            entries.append(entry.axes[0] if len(entry.axes) == 1 else entry.axes)
        else:
            return None
    return tuple(entries)


def jax_spec_text(spec: SpecValue) -> str:
    """The spec as JAX prints it in its messages (``P('z',)``), or as written when not all literal."""
    entries = calculator_spec(spec)
    return spec.describe() if entries is None else spec_repr(entries)


def mesh_axes(mesh: MeshValue) -> tuple[tuple[str, int], ...]:
    """The mesh as (name, size) pairs; the mesh must be known (``mesh.shape`` not ``None``)."""
    shape = mesh.shape
    assert shape is not None
    return tuple(shape.items())


def aval_text(array: Array) -> str:
    """``f32[6,4]``, ``?`` for an unknown dtype."""
    return dtypes.aval(array.dtype, array.shape)


def shard_inputs(
    mesh: MeshValue, spec: SpecValue, shape: tuple[int, ...], dtype: str | None
) -> ShardShapeInputs | None:
    """The shard-shape calculator's inputs, when the spec is all literal (``float32`` when the dtype is unknown).

    A mesh that repeats an axis name, a spec naming an axis twice or one the mesh lacks, and a
    scalar have no shard shape: ``None``.
    """
    entries = calculator_spec(spec)
    if entries is None or mesh.axis_names is None or len(set(mesh.axis_names)) != len(mesh.axis_names):
        return None
    names = spec.mesh_axes
    if len(set(names)) != len(names) or any(mesh.size(name) is None for name in names):
        return None
    try:
        return ShardShapeInputs(mesh_axes(mesh), shape, dtypes.short_name(dtype or "float32"), entries)
    except CalculatorInputError:
        return None  # a scalar, or sizes beyond what the calculator takes


def shard_result(placement: Placement) -> ShardShapeResult | None:
    """What the shard-shape calculator says about a placement whose shape and spec are known."""
    shape = placement.shape
    if shape is None:
        return None
    inputs = shard_inputs(placement.mesh, placement.spec, shape, placement.array.dtype)
    return None if inputs is None else compute_shard_shape(inputs)


def link_inputs(inputs: ShardShapeInputs, dtype_known: bool) -> dict[str, object]:
    """The calculator inputs as JSON-friendly values for a diagnostic or a hover (no dtype when unknown)."""
    return {
        "mesh": [list(axis) for axis in inputs.mesh],
        "shape": list(inputs.shape),
        "dtype": inputs.dtype if dtype_known else None,
        "spec": [list(entry) if isinstance(entry, tuple) else entry for entry in inputs.spec],
    }


def _known_mesh(value: Value) -> bool:
    return isinstance(value, MeshValue) and value.shape is not None


def _pairs(array: Value, sharding: Value, node: ast.expr) -> list[tuple[Value, Value, ast.expr]]:
    """Array and sharding leaves, with each array's expression, paired as ``device_put`` pairs a pytree
    with a pytree prefix of shardings."""
    if not isinstance(array, Seq):
        return [] if isinstance(sharding, Seq) else [(array, sharding, node)]
    written = isinstance(node, ast.Tuple | ast.List) and len(node.elts) == len(array.items)
    nodes = list(node.elts) if isinstance(node, ast.Tuple | ast.List) and written else [node] * len(array.items)
    if isinstance(sharding, Seq):
        if len(array.items) != len(sharding.items):
            return []
        return list(zip(array.items, sharding.items, nodes, strict=True))
    return [(item, sharding, item_node) for item, item_node in zip(array.items, nodes, strict=True)]


def _checks(api: str, mesh: MeshValue, traced: bool | None) -> tuple[bool, bool]:
    """Whether JAX checks the rank and the divisibility of a placement (see the module docstring)."""
    types = set(mesh.axis_types or ())
    if api == "device_put":
        return True, True
    if api == "reshard":
        explicit = types == {"Explicit"}
        return explicit, explicit
    auto = types == {"Auto"}
    return True, auto and traced is False


def sharding_model(index: ModuleIndex, interpreter: Interpreter) -> ShardingModel:
    """The sharding model of the module ``index`` describes, built once per check."""
    return index.derived("sharding", lambda owner: ShardingModel(owner, interpreter))
