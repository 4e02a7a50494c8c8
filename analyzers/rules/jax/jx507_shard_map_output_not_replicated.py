"""JX507: a shard_map output whose ``out_specs`` claims replication over a mesh axis the value varies over."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import RelatedLocation, first_fitting
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge.arrays import ARRAY_METHODS
from xlalens.analyzers.models.sharding.shard_map import PARTIAL, SHARD_MAP_NAMES, ShardMapSite, shard_map_model
from xlalens.analyzers.models.sharding.values import MeshValue, SpecValue, axis_names
from xlalens.analyzers.semantics.names import FunctionNode, Scope, all_params
from xlalens.analyzers.semantics.values import Const, Seq, Value

Axes = frozenset[str]

# Collectives whose result is the same on every device along the axes they reduce over
# (all_gather is followed separately: its result stays varying unless to='invarying').
_REDUCTIONS = frozenset({"psum", "pmean", "pmax", "pmin"})
# Functions that compute elementwise or reduce within one device: the result varies over the
# axes its inputs vary over. Anything that takes a function (scan, cond, custom_vjp) or
# communicates is not here, so the rule stays silent on it.
_LOCAL_NAMESPACES = ("jax.numpy.", "jax.nn.")
_LOCAL_LAX = frozenset(
    {
        "add",
        "sub",
        "mul",
        "div",
        "exp",
        "log",
        "tanh",
        "logistic",
        "dot",
        "dot_general",
        "reduce_sum",
        "reduce_max",
        "reshape",
        "transpose",
        "broadcast_in_dim",
        "convert_element_type",
        "rsqrt",
        "sqrt",
        "square",
        "abs",
        "neg",
        "max",
        "min",
        "select",
        "dynamic_slice",
        "dynamic_update_slice",
        "slice",
        "concatenate",
    }
)
_TAKES_FUNCTION = frozenset({"vectorize", "frompyfunc", "piecewise", "apply_along_axis", "apply_over_axes"})
_STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype"})
_VIEW_ATTRIBUTES = frozenset({"T", "mT", "real", "imag"})


@register_rule
class ShardMapOutputNotReplicated(Rule):
    """## What it does
    Finds a `shard_map` whose `out_specs` leaves out a mesh axis (so it promises the output is
    the same on every device along that axis) while the function returns a value computed from
    an argument that `in_specs` splits over that axis (or from `jax.lax.axis_index`), with no
    `jax.lax.psum`, `pmean`, `pmax` or `pmin` over the axis on the way. A `jax.lax.all_gather`
    over the axis does not count: in JAX 0.10 its result stays varying unless it is called with
    `to='invarying'`. Only straight-line bodies (assignments of arithmetic and `jax.numpy`
    calls, then `return`) are followed; the check is off with `check_vma=False`.

    ## Why is this bad?
    A mesh axis missing from an output's spec means "one copy of this value stands for all
    devices along the axis". A value built from a shard of a split argument differs between
    those devices, so JAX's replication check (`check_vma=True`, the default) rejects it when
    the function is traced: `ValueError: shard_map applied to the function '…' was given
    out_specs which require replication which can't be statically inferred given the mesh`.
    Either the result should be reduced over the axis (`jax.lax.psum(value, 'x')` for a sum
    of the shards, `pmean` for their mean), or the output spec should mention the axis so
    that the shards are concatenated.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import AxisType, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))


    def total(a):
        return jnp.sum(a)


    f = jax.shard_map(total, mesh=mesh, in_specs=P("x"), out_specs=P())
    y = f(jnp.ones((8, 4)))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import AxisType, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))


    def total(a):
        return jax.lax.psum(jnp.sum(a), "x")


    f = jax.shard_map(total, mesh=mesh, in_specs=P("x"), out_specs=P())
    y = f(jnp.ones((8, 4)))
    ```

    ## References
    - JAX docs: "Introduction to shard_map", section on `check_vma` (`docs/notebooks/shard_map.md`)
    - `jax/_src/shard_map.py`, `_check_reps` and `_spec_rank_error`
    """

    code = "JX507"
    raises = ("ValueError",)
    message = "shard_map out_specs claim replication over a mesh axis the output varies over"
    explainer = "sharding#replication-and-check-vma"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names: ClassVar[frozenset[str] | None] = SHARD_MAP_NAMES | {PARTIAL}
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        site = shard_map_model(ctx.index, ctx.interpreter).site_at(node)
        if site is None or site.check_vma is not True or site.axis_names_node is not None or site.body is None:
            return
        scope = ctx.index.scope_of(site.body)
        params = _param_axes(site)
        if scope is None or params is None:
            return
        flow = _Flow(ctx, scope, params)
        returned = flow.run(site.body)
        if returned is None:
            return
        for expr, spec, spec_node in _pairs(returned, site):
            varying = flow.varying(expr)
            if varying is None or spec.entries is None or any(e.kind == "unknown" for e in spec.entries):
                continue
            missing = sorted(varying - set(spec.mesh_axes))
            if not missing or not _in_mesh(site.mesh, missing, spec):
                continue
            self.report(ctx, site, expr, spec, spec_node, missing, flow)
            return

    @staticmethod
    def report(
        ctx: CheckContext,
        site: ShardMapSite,
        expr: ast.expr,
        spec: SpecValue,
        spec_node: ast.expr,
        missing: list[str],
        flow: _Flow,
    ) -> None:
        axis = missing[0]
        sources = flow.sources(expr, axis)
        if sources:
            origin = " and ".join(
                f"`{name}`, which in_specs {flow.spec_texts[name]} splits over {axis!r}," for name in sources
            )
        else:
            origin = f"the device's position along {axis!r} (`jax.lax.axis_index`),"
        names = f"axis {axis!r}" if len(missing) == 1 else "axes " + ", ".join(repr(a) for a in missing)
        listed = " and ".join(repr(a) for a in missing)
        reduced = repr(axis) if len(missing) == 1 else "(" + ", ".join(repr(a) for a in missing) + ")"
        text = ctx.segment(expr)
        if axis in flow.gathered:
            how = (
                f"is gathered by `jax.lax.all_gather`, whose result stays varying over {axis!r} (its default "
                "`to='varying'`)"
            )
            remedy = f"call it with `to='invarying'`, put {axis!r} in `out_specs`, or pass `check_vma=False`"
        else:
            how = f"is not reduced over {axis!r}"
            remedy = (
                f"return `jax.lax.psum({text}, {reduced})` (or `pmean`), put {listed} in `out_specs`, or pass "
                "`check_vma=False` if the values are equal"
            )
        related = [RelatedLocation(ctx.path, ctx.source.node_range(expr), f"`{text}` varies over mesh axis {axis!r}")]
        it = "it" if len(missing) == 1 else "them"
        # A long returned call is named by its function: `jax.lax.all_gather(…)`.
        called = f"{ctx.segment(expr.func)}(…)" if isinstance(expr, ast.Call) else text
        leaves = f"leaves out mesh {names}, but the returned"
        ctx.report(
            spec_node,
            first_fitting(
                f"`out_specs` {spec.describe()} {leaves} `{text}` varies over {it}",
                f"`out_specs` {spec.describe()} {leaves} `{called}` varies over {it}",
                f"`out_specs` {spec.describe()} {leaves} value varies over {it}",
                f"`out_specs` {leaves} value varies over {it}",
            ),
            detail=f"By leaving out mesh {names}, `out_specs` {spec.describe()} promises that the output is equal on "
            f"every device along {it}, but the returned `{text}` comes from {origin} and {how}: JAX raises "
            "\"shard_map applied to the function … was given out_specs which require replication which can't be "
            f'statically inferred"; {remedy}.',
            related=related,
        )


class _Flow:
    """Which mesh axes each local name of a straight-line body varies over."""

    def __init__(self, ctx: CheckContext, scope: Scope, params: dict[str, tuple[Axes, str] | None]) -> None:
        self.ctx = ctx
        self.scope = scope
        self.env: dict[str, Axes | None] = {name: None if axes is None else axes[0] for name, axes in params.items()}
        self.spec_texts = {name: axes[1] for name, axes in params.items() if axes is not None}
        self.origins: dict[str, frozenset[str]] = {name: frozenset({name}) for name in params}
        self.gathered: set[str] = set()

    def run(self, body: FunctionNode) -> list[ast.expr] | None:
        """The returned expressions (elements of a returned tuple), or ``None`` when the body is not simple."""
        if isinstance(body, ast.Lambda):
            result: ast.expr = body.body
        else:
            statements = list(body.body)
            if statements and isinstance(statements[0], ast.Expr) and isinstance(statements[0].value, ast.Constant):
                statements = statements[1:]
            if not statements or not isinstance(statements[-1], ast.Return) or statements[-1].value is None:
                return None
            for statement in statements[:-1]:
                if not (
                    isinstance(statement, ast.Assign)
                    and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name)
                ):
                    return None
                name = statement.targets[0].id
                self.env[name] = self.varying(statement.value)
                self.origins[name] = self.names(statement.value)
            result = statements[-1].value
        if isinstance(result, ast.Tuple):
            if any(isinstance(e, ast.Starred) for e in result.elts):
                return None
            return list(result.elts)
        return [result]

    def names(self, expr: ast.expr) -> frozenset[str]:
        """The parameters an expression is computed from, through local names."""
        found: set[str] = set()
        for node in ast.walk(expr):
            if isinstance(node, ast.Name) and node.id in self.origins:
                found |= self.origins[node.id]
        return frozenset(found)

    def sources(self, expr: ast.expr, axis: str) -> list[str]:
        """The parameters ``expr`` comes from whose spec splits over ``axis``."""
        return sorted(
            name for name in self.names(expr) if name in self.spec_texts and axis in (self.env.get(name) or ())
        )

    def varying(self, expr: ast.expr) -> Axes | None:
        """The mesh axes ``expr`` varies over, or ``None`` when the rule cannot tell."""
        if isinstance(expr, ast.Constant):
            return frozenset()
        if isinstance(expr, ast.Name):
            if expr.id in self.env:
                return self.env[expr.id]
            return self.outer(expr)
        if isinstance(expr, ast.BinOp):
            return self.union([expr.left, expr.right])
        if isinstance(expr, ast.UnaryOp):
            return self.varying(expr.operand)
        if isinstance(expr, ast.Compare):
            return self.union([expr.left, *expr.comparators])
        if isinstance(expr, ast.Tuple | ast.List):
            return self.union(list(expr.elts))
        if isinstance(expr, ast.Subscript):
            return self.union([expr.value, expr.slice])
        if isinstance(expr, ast.Slice):
            return self.union([part for part in (expr.lower, expr.upper, expr.step) if part is not None])
        if isinstance(expr, ast.Attribute):
            if expr.attr in _STATIC_ATTRIBUTES:
                return frozenset()
            if expr.attr in _VIEW_ATTRIBUTES:
                return self.varying(expr.value)
            return self.outer(expr)
        if isinstance(expr, ast.Call):
            return self.call(expr)
        return None

    def union(self, exprs: list[ast.expr]) -> Axes | None:
        found: set[str] = set()
        for expr in exprs:
            axes = self.varying(expr)
            if axes is None:
                return None
            found |= axes
        return frozenset(found)

    def outer(self, expr: ast.Name | ast.Attribute) -> Axes | None:
        """A name from outside the body: an imported constant, or a Python number, is the same everywhere."""
        if self.ctx.index.qualname(expr, self.scope) is not None:
            return frozenset()
        value: Value = self.ctx.interpreter.value_of(expr, self.scope)
        if isinstance(value, Const) and isinstance(value.value, int | float | bool | str | type(None)):
            return frozenset()
        return None

    def call(self, call: ast.Call) -> Axes | None:
        arguments = [*call.args, *(k.value for k in call.keywords)]
        if any(isinstance(a, ast.Starred | ast.Lambda) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        func = call.func
        qualname = self.ctx.index.qualname(func, self.scope) if isinstance(func, ast.Name | ast.Attribute) else None
        if qualname is not None:
            if qualname.startswith("jax.lax."):
                name = qualname[len("jax.lax.") :]
                if name in _REDUCTIONS:
                    return self.reduction(call)
                if name == "all_gather":
                    return self.all_gather(call)
                if name == "axis_index":
                    axes = self.axes(call, 0)
                    return None if axes is None else frozenset(axes)
                return self.union(arguments) if name in _LOCAL_LAX else None
            if qualname.startswith(_LOCAL_NAMESPACES) and qualname.count(".") == 2:
                if qualname.rsplit(".", 1)[1] in _TAKES_FUNCTION:
                    return None
                return self.union(arguments)
            return None
        if isinstance(func, ast.Attribute) and func.attr in ARRAY_METHODS:
            return self.union([func.value, *arguments])
        return None

    def reduction(self, call: ast.Call) -> Axes | None:
        """``psum``/``pmean``/``pmax``/``pmin`` over literal axes: the operand's axes without them.

        Reductions within groups of devices (``axis_index_groups``) are not followed.
        """
        axes = self.axes(call, 1)
        if axes is None or not call.args or len(call.args) > 2:
            return None
        if any(k.arg != "axis_name" for k in call.keywords):
            return None
        operand = self.varying(call.args[0])
        return None if operand is None else frozenset(operand - set(axes))

    def all_gather(self, call: ast.Call) -> Axes | None:
        """``all_gather``: its result still varies over the gathered axes (JAX 0.10's default
        ``to='varying'``) unless ``to='invarying'`` is passed."""
        axes = self.axes(call, 1)
        if axes is None or not call.args or len(call.args) > 2:
            return None
        keywords = {k.arg: k.value for k in call.keywords}
        if None in keywords or "axis_index_groups" in keywords:
            return None
        if not all(isinstance(keywords.get(name), ast.Constant | None) for name in ("axis", "tiled", "to")):
            return None
        to = keywords.get("to")
        mode = to.value if isinstance(to, ast.Constant) else "varying"
        operand = self.varying(call.args[0])
        if operand is None or not set(axes) <= operand:
            return None
        if mode == "invarying":
            return frozenset(operand - set(axes))
        if mode != "varying":
            return None
        self.gathered.update(axes)
        return operand

    def axes(self, call: ast.Call, position: int) -> tuple[str, ...] | None:
        expr = next((k.value for k in call.keywords if k.arg == "axis_name"), None)
        if expr is None:
            if position >= len(call.args):
                return None
            expr = call.args[position]
        return axis_names(self.ctx.interpreter.value_of(expr, self.scope))


def _param_axes(site: ShardMapSite) -> dict[str, tuple[Axes, str] | None] | None:
    """Each parameter's mesh axes (and spec text) from ``in_specs``; ``None`` when they are not paired.

    A ``None`` spec makes the argument static (the same on every device); a parameter whose spec
    is not a literal maps to ``None``.
    """
    specs = site.param_specs
    if specs is None or site.body is None or site.body.args.kwarg is not None:
        return None
    found: dict[str, tuple[Axes, str] | None] = dict.fromkeys(all_params(site.body))
    for name, spec in specs.items():
        if isinstance(spec, Const) and spec.value is None:
            found[name] = (frozenset(), "None")
        elif isinstance(spec, SpecValue) and spec.entries is not None:
            if any(entry.kind == "unknown" for entry in spec.entries):
                continue
            found[name] = (frozenset(spec.mesh_axes), spec.describe())
    return found


def _pairs(returned: list[ast.expr], site: ShardMapSite) -> list[tuple[ast.expr, SpecValue, ast.expr]]:
    """Each returned value with its output spec and the spec's expression."""
    value, node = site.out_specs, site.out_specs_node
    if node is None:
        return []
    if isinstance(value, SpecValue):
        return [(expr, value, node) for expr in returned]
    if isinstance(value, Seq) and not value.is_list and len(value.items) == len(returned) and len(returned) > 1:
        elements = (
            node.elts if isinstance(node, ast.Tuple) and len(node.elts) == len(returned) else [node] * len(returned)
        )
        return [
            (expr, spec, element)
            for expr, spec, element in zip(returned, value.items, elements, strict=True)
            if isinstance(spec, SpecValue)
        ]
    return []


def _in_mesh(mesh: Value, missing: list[str], spec: SpecValue) -> bool:
    """Whether the axes are the mesh's (else JAX reports an unknown axis first); an unknown mesh passes."""
    if not isinstance(mesh, MeshValue) or mesh.axis_names is None:
        return True
    return all(axis in mesh.axis_names for axis in [*missing, *spec.mesh_axes])
