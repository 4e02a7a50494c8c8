"""JX506: ``shard_map`` specs whose pytree structure differs from the arguments or the returned value."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import (
    Applicability,
    Fix,
    Position,
    Range,
    RelatedLocation,
    first_fitting,
    shorten,
)
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.models.sharding.shard_map import (
    PARTIAL,
    SHARD_MAP_NAMES,
    ShardMapSite,
    returned_expressions,
    shard_map_model,
    spec_text,
)
from xlalens.analyzers.models.sharding.values import MeshValue, SpecValue
from xlalens.analyzers.rules.jax._pallas import plural
from xlalens.analyzers.semantics.names import FunctionNode, ModuleIndex, Scope, positional_params
from xlalens.analyzers.semantics.values import UNKNOWN, Array, Seq, Value

_PYTREE_ERROR = "pytree structure error"


@register_rule
class ShardMapSpecsDifferFromArguments(Rule):
    """## What it does
    Finds a `shard_map` whose `in_specs` does not have the structure of the arguments the mapped
    function is called with, or whose `out_specs` does not have the structure of what the
    function returns: a tuple of 3 specs for a function called with 2 arguments (or taking 2
    parameters), `in_specs` written as a list, a tuple of 3 `out_specs` for a function that
    returns a pair, or a tuple of specs for a function that returns one array. On a mesh with
    Explicit axes (`jax.make_mesh`'s default), it also finds an argument built by a `jnp`
    constructor and never placed (`jnp.ones(...)`, no `device_put`) whose spec splits it over an
    Explicit axis: shard_map requires the argument to carry that sharding already.

    ## Why is this bad?
    `shard_map` pairs `in_specs` with the tuple of positional arguments, and `out_specs` with the
    function's output, as pytree prefixes. A single `PartitionSpec` is a leaf and applies to
    everything below it, but a tuple must have one entry per element, and a list is never a prefix
    of a tuple (the arguments are always a tuple). Any difference raises `ValueError: pytree
    structure error: different lengths of tuple at key path shard_map in_specs` (or `different
    types`, or the `out_specs` variant) when the function is called. Usually an argument or an
    output was added and its spec was not.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import AxisType, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))


    def scaled(a, b):
        return a * b


    f = jax.shard_map(scaled, mesh=mesh, in_specs=(P("x"),), out_specs=P("x"))
    y = f(jnp.ones((8, 4)), jnp.ones((8, 4)))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import AxisType, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))


    def scaled(a, b):
        return a * b


    f = jax.shard_map(scaled, mesh=mesh, in_specs=(P("x"), P("x")), out_specs=P("x"))
    y = f(jnp.ones((8, 4)), jnp.ones((8, 4)))
    ```

    ## Fix safety
    Only an `in_specs` written as a list literal is fixed: it becomes the tuple of the same
    specs. That is safe, as the list always raised.

    ## References
    - JAX docs: "Introduction to shard_map" (`docs/notebooks/shard_map.md`)
    - `jax/_src/shard_map.py`, `_shard_map` (`broadcast_prefix` of `in_specs` over the arguments)
    """

    code = "JX506"
    raises = ("ValueError",)
    message = "shard_map's in_specs or out_specs do not have the structure of the arguments or outputs"
    explainer = "sharding#shard-map-specs"
    fix_title = "Write `in_specs` as a tuple"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names: ClassVar[frozenset[str] | None] = SHARD_MAP_NAMES | {PARTIAL}
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        site = shard_map_model(ctx.index, ctx.interpreter).site_at(node)
        if site is None:
            return
        self.check_inputs(site, ctx)
        self.check_outputs(site, ctx)
        self.check_unsharded_inputs(site, ctx)

    def check_unsharded_inputs(self, site: ShardMapSite, ctx: CheckContext) -> None:
        """On a mesh with Explicit axes, an argument whose spec splits it over an Explicit axis must already
        carry that sharding: a freshly built ``jnp.ones(...)`` is replicated, and the call raises."""
        mesh = site.mesh
        if not isinstance(mesh, MeshValue) or mesh.axis_types is None or mesh.axis_names is None:
            return
        explicit = {name for name, kind in zip(mesh.axis_names, mesh.axis_types, strict=False) if kind == "Explicit"}
        value = site.in_specs
        if not explicit or value is None:
            return
        scopes = ctx.index.derived("call-scopes", _call_scopes)
        for application in site.applications:
            call = application.call
            scope = scopes.get(id(call))
            if scope is None or any(isinstance(a, ast.Starred) for a in call.args):
                continue
            if not _applies_directly(call, scope, site, ctx):
                continue
            specs = value.items if isinstance(value, Seq) else (value,) * len(call.args)
            if len(specs) != len(call.args):
                continue
            for argument, spec in zip(call.args, specs, strict=True):
                split = [axis for axis in spec.mesh_axes if axis in explicit] if isinstance(spec, SpecValue) else []
                built = _fresh_array(argument, scope, ctx) if split else None
                if built is None:
                    continue
                ctx.report(
                    argument,
                    f"`{shorten(ctx.segment(argument))}` is not sharded but its spec {spec.describe()} splits it "
                    f"over Explicit axis {split[0]!r}",
                    detail=f"`{ctx.segment(argument)}` comes from `{shorten(ctx.segment(built))}`, which is replicated "
                    f"(P(None, ...)); on a mesh with Explicit axes shard_map checks that each argument already has "
                    f'the sharding its in_specs name: JAX raises ValueError "in_specs passed to shard_map: '
                    f'{spec.describe()} does not match the specs of the input". Place it first with '
                    f"`jax.device_put(x, NamedSharding(mesh, {spec.describe()}))` (or `jax.reshard`), or use a mesh "
                    "with Auto axes.",
                    related=[_located(ctx, call, "the mapped function is called here")],
                )
                return

    def check_inputs(self, site: ShardMapSite, ctx: CheckContext) -> None:
        value, expr = site.in_specs, site.in_specs_node
        if expr is None or not isinstance(value, Seq):
            return
        if value.is_list:
            ctx.report(
                expr,
                first_fitting(
                    f"`in_specs` is a list ({spec_text(value)}) but shard_map's arguments are a tuple",
                    "`in_specs` is a list but shard_map's arguments are always a tuple",
                ),
                detail=f'JAX raises "{_PYTREE_ERROR}: different types at key path shard_map in_specs" (a list is not '
                f"a prefix of a tuple). Write the specs as a tuple: `{_tuple_text(ctx, expr, value)}`.",
                fix=_tuple_fix(ctx, expr),
            )
            return
        count = len(value.items)
        for application in site.applications:
            given = len(application.args)
            if given != count:
                specs, arguments = plural(count, "spec"), plural(given, "argument")
                ctx.report(
                    expr,
                    first_fitting(
                        f"`in_specs` has {specs} but the mapped function is called with {arguments} on line "
                        f"{application.call.lineno}",
                        f"`in_specs` has {specs} but the mapped function gets {arguments}",
                    ),
                    detail=f'JAX raises "{_PYTREE_ERROR}: different lengths of tuple at key path shard_map '
                    'in_specs". Give one spec per argument, in order (or a single `P(...)` for all of them).',
                    related=[_located(ctx, application.call, "the mapped function is called here")],
                )
                return
        required = _required_positional(site.body, ctx)
        if site.applications or required is None or required == count:
            return
        assert site.body is not None
        ctx.report(
            expr,
            f"`in_specs` has {plural(count, 'spec')} but `{shorten(_name(site.body))}` takes "
            f"{plural(required, 'positional parameter')}",
            detail=f"`{_name(site.body)}` has no defaults and no `*args`, so every call passes {required}: JAX raises "
            f'"{_PYTREE_ERROR}: different lengths of tuple at key path shard_map in_specs". Give one spec per '
            "parameter, in order (or a single `P(...)` for all of them).",
            related=[_located(ctx, site.body, f"`{_name(site.body)}` is defined here")],
        )

    def check_outputs(self, site: ShardMapSite, ctx: CheckContext) -> None:
        value, expr = site.out_specs, site.out_specs_node
        if expr is None or site.body is None or not isinstance(value, Seq):
            return
        structure = _returned_structure(site, ctx)
        if structure is None:
            return
        kind, length = structure
        out_kind = "list" if value.is_list else "tuple"
        name = _name(site.body)
        specs = plural(len(value.items), "spec")
        raises = f'The specs are {spec_text(value)}: JAX raises "{_PYTREE_ERROR}: different'
        if kind == "leaf":
            problem = f"`out_specs` is a {out_kind} of {specs} but `{shorten(name)}` returns a single array"
            detail = f'{raises} types at key path shard_map out_specs". Pass one `P(...)`.'
        elif kind != out_kind:
            problem = f"`out_specs` is a {out_kind} but `{shorten(name)}` returns a {kind}"
            detail = f'{raises} types at key path shard_map out_specs". Write the specs as a {kind}.'
        elif length != len(value.items):
            problem = f"`out_specs` has {specs} but `{shorten(name)}` returns a {kind} of {plural(length, 'value')}"
            detail = (
                f'{raises} lengths of {kind} at key path shard_map out_specs". Give one spec per output, in order '
                "(or a single `P(...)` for all of them)."
            )
        else:
            return
        ctx.report(expr, problem, detail=detail, related=[_located(ctx, site.body, f"`{name}` is defined here")])


def _required_positional(body: FunctionNode | None, ctx: CheckContext) -> int | None:
    """How many positional arguments every call of ``body`` passes, when its signature fixes it.

    A method is left alone: how ``self`` reaches it depends on how the mapped function is looked up.
    """
    if body is None:
        return None
    scope = ctx.index.scope_of(body)
    if scope is None or (scope.parent is not None and scope.parent.is_class):
        return None
    args = body.args
    if args.vararg is not None or args.defaults or any(default is None for default in args.kw_defaults):
        return None
    return len(positional_params(body))


def _returned_structure(site: ShardMapSite, ctx: CheckContext) -> tuple[str, int] | None:
    """``('tuple', n)``, ``('list', n)`` or ``('leaf', 1)`` when every ``return`` of the body agrees.

    A returned expression counts as one array only when its value is an array of known shape
    (the body is evaluated with the per-device arguments of its calls): a parameter of unknown
    structure times 2 may be a repeated tuple, and ``jnp.linalg.qr`` returns a pair.
    """
    assert site.body is not None
    returned = returned_expressions(site.body)
    scope = ctx.index.scope_of(site.body)
    if returned is None or scope is None:
        return None
    values = None
    shapes: set[tuple[str, int]] = set()
    for expr in returned:
        if isinstance(expr, ast.Tuple | ast.List):
            if any(isinstance(e, ast.Starred) for e in expr.elts):
                return None
            shapes.add(("list" if isinstance(expr, ast.List) else "tuple", len(expr.elts)))
            continue
        if values is None:
            evaluation = (
                ctx.interpreter.evaluation_with(scope, site.local_args)
                if site.local_args
                else ctx.interpreter.evaluation(scope)
            )
            values = evaluation.values
        value: Value = values.get(id(expr), UNKNOWN)
        if not (isinstance(value, Array) and value.shape is not None):
            return None
        shapes.add(("leaf", 1))
    return shapes.pop() if len(shapes) == 1 else None


def _name(function: FunctionNode) -> str:
    return "<lambda>" if isinstance(function, ast.Lambda) else function.name


def _located(ctx: CheckContext, node: ast.AST, message: str) -> RelatedLocation:
    """A related location; a ``def`` is marked on its first line only."""
    anchor = ctx.source.node_range(node)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        anchor = Range(anchor.start, Position(node.lineno, len(ctx.source.line(node.lineno))))
    return RelatedLocation(ctx.path, anchor, message)


def _tuple_text(ctx: CheckContext, expr: ast.expr, value: Seq) -> str:
    if isinstance(expr, ast.List):
        items = [ctx.segment(e) for e in expr.elts]
        return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
    return spec_text(Seq(value.items))


def _tuple_fix(ctx: CheckContext, expr: ast.expr) -> Fix | None:
    if not isinstance(expr, ast.List) or any(isinstance(e, ast.Starred) for e in expr.elts):
        return None
    if not all(isinstance(ctx.value(e), SpecValue) or ctx.segment(e) == "None" for e in expr.elts):
        return None
    text = ctx.segment(expr)
    inner = text[1:-1]
    if len(expr.elts) == 1 and not inner.rstrip().endswith(","):
        inner = inner.rstrip() + ","
    return ctx.fix("Write `in_specs` as a tuple", Applicability.SAFE, [ctx.edit(expr, f"({inner})")])


_FRESH_CONSTRUCTORS = frozenset(
    f"jax.numpy.{name}" for name in ("zeros", "ones", "full", "empty", "arange", "linspace", "eye", "array", "asarray")
)
"""``jax.numpy`` constructors whose result is replicated unless given ``device=`` or ``out_sharding=``."""


def _call_scopes(index: ModuleIndex) -> dict[int, Scope]:
    return {id(call): scope for call, scope in index.nodes.get(ast.Call, ())}


def _fresh_array(expr: ast.expr, scope: Scope, ctx: CheckContext) -> ast.Call | None:
    """The ``jnp`` constructor call that built ``expr`` (itself, or the one assignment of the name it is)
    without a ``device=``/``out_sharding=``: an array nobody has placed on the mesh."""
    if isinstance(expr, ast.Name):
        assigned = ctx.index.single_assignment(expr.id, scope)
        if assigned is None:
            return None
        expr, scope = assigned[0].value, assigned[1]
    if not isinstance(expr, ast.Call) or ctx.index.qualname(expr.func, scope) not in _FRESH_CONSTRUCTORS:
        return None
    if any(k.arg in (None, "device", "out_sharding", "sharding") for k in expr.keywords):
        return None
    return expr


def _applies_directly(call: ast.Call, scope: Scope, site: ShardMapSite, ctx: CheckContext) -> bool:
    """Whether ``call`` calls the shard_map itself, outside any traced function (not through ``jax.jit``)."""
    function = scope.enclosing_function()
    if function is not None and id(function.node) in ctx.traced:
        return False
    if call.func is site.call:
        return True
    if not isinstance(call.func, ast.Name):
        return False
    assigned = ctx.index.single_assignment(call.func.id, scope)
    return assigned is not None and assigned[0].value is site.call
