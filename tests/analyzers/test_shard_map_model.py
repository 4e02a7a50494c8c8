"""The shard_map model: every spelling, its mesh and specs, its body, its calls and its collectives."""

from __future__ import annotations

import ast
import textwrap

from xlalens.analyzers.models.extensions import module_interpreter
from xlalens.analyzers.models.sharding.shard_map import EXPERIMENTAL_SHARD_MAP, SHARD_MAP, ShardMapSite, shard_map_model
from xlalens.analyzers.models.sharding.values import MeshValue, SpecValue
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.analyzers.semantics.values import UNKNOWN, Array, Const, Seq

HEADER = """
import functools
from functools import partial
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P
mesh = jax.make_mesh((4, 2), ('x', 'y'))
x = jnp.ones((8, 4))
"""


def sites(body: str) -> list[ShardMapSite]:
    index = ModuleIndex(ast.parse(HEADER + textwrap.dedent(body)), [ast.Call])
    return shard_map_model(index, module_interpreter(index)).sites


def only(body: str) -> ShardMapSite:
    found = sites(body)
    assert len(found) == 1, found
    return found[0]


def describe(value: object) -> str:
    assert isinstance(value, SpecValue)
    return value.describe()


def test_public_call_with_keywords() -> None:
    site = only(
        """
        def f(a):
            return a
        g = jax.shard_map(f, mesh=mesh, in_specs=(P('x'),), out_specs=P('x'))
        y = g(x)
        """
    )
    assert site.qualname == SHARD_MAP and not site.experimental
    assert isinstance(site.mesh, MeshValue) and site.mesh.shape == {"x": 4, "y": 2}
    assert isinstance(site.in_specs, Seq) and [describe(s) for s in site.in_specs.items] == ["P('x')"]
    assert describe(site.out_specs) == "P('x')"
    assert isinstance(site.body, ast.FunctionDef) and site.body.name == "f"
    assert site.check_vma is True
    assert [len(a.args) for a in site.applications] == [1]
    assert isinstance(site.applications[0].args[0], Array) and site.applications[0].args[0].shape == (8, 4)


def test_experimental_positional_arguments_and_check_rep() -> None:
    site = only(
        """
        from jax.experimental.shard_map import shard_map
        y = shard_map(lambda a: a, mesh, P('x'), P('x'), check_rep=False)(x)
        """
    )
    assert site.qualname == EXPERIMENTAL_SHARD_MAP and site.experimental
    assert isinstance(site.mesh, MeshValue)
    assert describe(site.in_specs) == "P('x')" and describe(site.out_specs) == "P('x')"
    assert site.check_vma is False
    assert isinstance(site.body, ast.Lambda)
    assert len(site.applications) == 1


def test_experimental_positional_check_rep() -> None:
    site = only(
        """
        import jax.experimental.shard_map
        f = jax.experimental.shard_map.shard_map(lambda a: a, mesh, P('x'), P('x'), False)
        """
    )
    assert site.check_vma is False and site.applications == ()


def test_partial_decorator() -> None:
    site = only(
        """
        @partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P(), check_vma=False)
        def total(a):
            return jax.lax.psum(a, 'x')
        y = total(x)
        z = jax.jit(total)(x)
        """
    )
    assert isinstance(site.call.func, ast.Name) and site.call.func.id == "partial"
    assert isinstance(site.body, ast.FunctionDef) and site.body.name == "total"
    assert site.check_vma is False
    assert len(site.applications) == 2
    assert [(c.primitive, c.axes) for c in site.collectives] == [("psum", ("x",))]


def test_functools_partial_of_experimental_shard_map() -> None:
    site = only(
        """
        from jax.experimental.shard_map import shard_map
        @functools.partial(shard_map, mesh=mesh, in_specs=(P('x'),), out_specs=P('x'), check_rep=False)
        def f(a):
            return a
        """
    )
    assert site.experimental and site.check_vma is False
    assert isinstance(site.body, ast.FunctionDef)


def test_decorator_call_without_function() -> None:
    site = only(
        """
        @jax.shard_map(mesh=mesh, in_specs=P('x'), out_specs=P('x'))
        def f(a):
            return a * 2
        y = f(x)
        """
    )
    assert isinstance(site.body, ast.FunctionDef) and site.body.name == "f"
    assert len(site.applications) == 1


def test_decorator_factory_applied_to_function() -> None:
    site = only(
        """
        def f(a):
            return a
        y = jax.shard_map(mesh=mesh, in_specs=P('x'), out_specs=P('x'))(f)(x)
        """
    )
    assert isinstance(site.body, ast.FunctionDef) and len(site.applications) == 1


def test_omitted_mesh_and_in_specs() -> None:
    site = only(
        """
        def f(a):
            return a
        g = jax.shard_map(f, out_specs=P('x'))
        """
    )
    assert site.mesh is UNKNOWN and site.in_specs is None and site.in_specs_node is None
    assert site.out_specs_node is not None


def test_non_literal_check_vma_is_unknown() -> None:
    site = only(
        """
        def build(flag):
            return jax.shard_map(lambda a: a, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=flag)
        """
    )
    assert site.check_vma is None


def test_a_name_bound_twice_has_no_applications() -> None:
    site = only(
        """
        g = jax.shard_map(lambda a: a, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
        g = jnp.sin
        y = g(x)
        """
    )
    assert site.applications == ()


def test_starred_or_keyword_calls_are_not_applications() -> None:
    site = only(
        """
        g = jax.shard_map(lambda a: a, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
        args = (x,)
        y = g(*args)
        z = g(a=x)
        """
    )
    assert site.applications == ()


def test_collectives_in_called_local_functions() -> None:
    site = only(
        """
        axis = 'y'
        def norm(v):
            return v / jax.lax.psum(jnp.sum(v), ('x', 'y'))
        def f(a):
            i = jax.lax.axis_index(axis)
            return norm(a) + jax.lax.pmean(a, axis_name=some_name())
        g = jax.shard_map(f, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
        """
    )
    found = sorted((c.primitive, c.axes) for c in site.collectives)
    assert found == [("axis_index", ("y",)), ("pmean", None), ("psum", ("x", "y"))]
    pmean = next(c for c in site.collectives if c.primitive == "pmean")
    assert isinstance(pmean.axis_node, ast.Call)


def test_unrelated_partial_and_calls_are_not_sites() -> None:
    assert (
        sites(
            """
        h = partial(jnp.sum, axis=0)
        y = jax.jit(lambda a: a)(x)
        """
        )
        == []
    )


def test_specs_values_are_pytrees() -> None:
    site = only(
        """
        specs = (P('x', None), {'w': P(None, 'y')}, None)
        g = jax.shard_map(lambda a, b, c: a, mesh=mesh, in_specs=specs, out_specs=(P(), P('x')))
        """
    )
    assert isinstance(site.in_specs, Seq) and len(site.in_specs.items) == 3
    assert site.in_specs.items[2] == Const(None)
    assert isinstance(site.out_specs, Seq) and len(site.out_specs.items) == 2


def test_local_args_divide_the_global_shapes_by_the_mesh() -> None:
    site = only(
        """
        w = jnp.ones((4, 6))
        def f(a, b, c):
            return a
        g = jax.shard_map(f, mesh=mesh, in_specs=(P('x', None), P(None, 'y'), P(('x', 'y'))), out_specs=P('x'))
        y = g(x, w, jnp.ones((16,)))
        """
    )
    assert {name: value.shape for name, value in site.local_args.items()} == {  # type: ignore[attr-defined]
        "a": (2, 4),
        "b": (4, 3),
        "c": (2,),
    }


def test_local_args_join_calls_and_drop_uneven_splits() -> None:
    site = only(
        """
        g = jax.shard_map(lambda a: a, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
        y = g(jnp.ones((8, 4)))
        z = g(jnp.ones((16, 4)))
        w = g(jnp.ones((6, 4)))
        """
    )
    local = site.local_args["a"]
    assert isinstance(local, Array) and local.shape == (None, 4) and local.traced


def test_local_args_need_a_known_mesh() -> None:
    site = only(
        """
        def build(m):
            g = jax.shard_map(lambda a: a, mesh=m, in_specs=P('x'), out_specs=P('x'))
            return g(x)
        """
    )
    assert site.local_args == {}
    assert site.param_specs is not None and list(site.param_specs) == ["a"]


def test_body_evaluated_with_local_args_sees_per_device_shapes() -> None:
    source = HEADER + textwrap.dedent(
        """
        def body(a):
            doubled = a * 2
            return doubled
        g = jax.shard_map(body, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))
        y = g(x)
        """
    )
    index = ModuleIndex(ast.parse(source), [ast.Call])
    interpreter = module_interpreter(index)
    site = shard_map_model(index, interpreter).sites[0]
    assert site.body is not None
    scope = index.scope_of(site.body)
    assert scope is not None
    evaluation = interpreter.evaluation_with(scope, site.local_args)
    doubled = evaluation.summary["doubled"]
    assert isinstance(doubled, Array) and doubled.shape == (2, 2)


def test_the_interpreter_runs_a_mapped_body_on_per_device_blocks() -> None:
    tree = ast.parse(
        HEADER
        + textwrap.dedent(
            """
            @partial(jax.shard_map, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))
            def double(a):
                doubled = a * 2.0
                return doubled

            double(x)
            """
        )
    )
    index = ModuleIndex(tree, [ast.Call])
    interpreter = module_interpreter(index)
    body = next(node for node in tree.body if isinstance(node, ast.FunctionDef))
    target = body.body[0].targets[0]
    value = interpreter.value_of(target, index.scopes[id(body)])
    assert isinstance(value, Array) and value.shape == (2, 2) and value.traced
