"""The interprocedural engine: call graph, class models, call-site typing and traced-function discovery."""

from __future__ import annotations

import ast
import textwrap

from xlalens.analyzers.models.extensions import module_interpreter
from xlalens.analyzers.semantics.calls import call_graph
from xlalens.analyzers.semantics.classes import class_model
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import FunctionNode, ModuleIndex
from xlalens.analyzers.semantics.values import UNKNOWN, Array, Const, Instance, ModuleRef

_WANTED = {ast.Call, ast.Name, ast.Attribute, ast.Yield, ast.YieldFrom}


def _module(source: str) -> tuple[ModuleIndex, Interpreter]:
    index = ModuleIndex(ast.parse(textwrap.dedent(source)), _WANTED)
    return index, module_interpreter(index)


def _function(index: ModuleIndex, name: str) -> FunctionNode:
    found = [s.node for s in index.functions if getattr(s.node, "name", None) == name]
    assert len(found) == 1, f"{len(found)} functions named {name}"
    return found[0]


def _value(index: ModuleIndex, interpreter: Interpreter, function: str, text: str) -> object:
    """The interpreter's value of the (only) expression spelled ``text`` inside ``function``."""
    node = _function(index, function)
    scope = index.scope_of(node)
    assert scope is not None
    matches = [n for n in ast.walk(node) if isinstance(n, ast.expr) and ast.unparse(n) == text]
    assert matches, f"no `{text}` in {function}"
    return interpreter.value_of(matches[0], scope)


def test_constructor_calls_are_call_sites_of_init() -> None:
    index, _ = _module(
        """
        class Solver:
            def __init__(self, tol=1e-6):
                self.tol = tol

        solver = Solver(tol=1e-3)
        """
    )
    graph = call_graph(index)
    init = _function(index, "__init__")
    (site,) = graph.sites_of(init)
    assert site.bound == 1 and set(site.keywords) == {"tol"}
    assert not graph.escapes(init)


def test_a_class_handed_on_lets_its_init_escape() -> None:
    index, _ = _module(
        """
        class Base:
            def __init__(self, n):
                self.n = n

        class Child(Base):
            pass

        make = Base
        obj = Base(3)
        """
    )
    assert call_graph(index).escapes(_function(index, "__init__"))


def test_attributes_come_from_constructor_arguments_and_defaults() -> None:
    index, interpreter = _module(
        """
        import jax.numpy as jnp

        class Search:
            def __init__(self, shrink=0.5, max_iter=20):
                self.shrink, self.max_iter = shrink, max_iter

            def run(self, x):
                return x * self.shrink, self.max_iter

        def step(x):
            return Search(max_iter=7).run(x)

        step(jnp.ones(3))
        """
    )
    assert _value(index, interpreter, "run", "self.shrink") == Const(0.5)
    assert _value(index, interpreter, "run", "self.max_iter") == Const(7)


def test_dataclass_field_defaults_keep_their_values() -> None:
    index, interpreter = _module(
        """
        from dataclasses import dataclass
        import jax.numpy as jnp

        @dataclass(frozen=True)
        class Policy:
            compute_dtype: object = jnp.bfloat16
            scale: float = 2.0

        def cast(x, policy):
            return x.astype(policy.compute_dtype) * policy.scale

        cast(jnp.ones(2), Policy())
        """
    )
    policy = _value(index, interpreter, "cast", "policy")
    assert isinstance(policy, Instance)
    assert policy.field_value("compute_dtype") == ModuleRef("jax.numpy.bfloat16")
    assert policy.field_value("scale") == Const(2.0)
    model = class_model(index, policy.node)
    assert model.kind == "dataclass" and model.field_names == ("compute_dtype", "scale")


def test_scalar_dtype_constructors_are_strongly_typed_arrays() -> None:
    index, interpreter = _module(
        """
        import jax.numpy as jnp

        def init():
            return jnp.int32(0), jnp.float16(jnp.ones((2, 3)))
        """
    )
    assert _value(index, interpreter, "init", "jnp.int32(0)") == Array((), "int32", False, False)
    assert _value(index, interpreter, "init", "jnp.float16(jnp.ones((2, 3)))") == Array((2, 3), "float16")


def test_a_method_jitted_through_its_object_is_traced_with_its_call_site_arguments() -> None:
    index, interpreter = _module(
        """
        import jax
        import jax.numpy as jnp

        class Tracker:
            def __init__(self, window):
                self.window = window

            def history(self, dim):
                return jnp.zeros((self.window, dim))

            def smooth(self, observations):
                return self.history(observations.shape[-1])

        tracker = Tracker(window=3)
        jax.jit(tracker.smooth)(jnp.ones((5, 2)))
        """
    )
    smooth, history = _function(index, "smooth"), _function(index, "history")
    assert interpreter.traced[id(smooth)].via == "jax.jit"
    assert interpreter.traced[id(history)].called_from is smooth
    observations = _value(index, interpreter, "smooth", "observations")
    assert isinstance(observations, Array) and observations.traced and observations.shape == (5, 2)
    zeros = _value(index, interpreter, "history", "jnp.zeros((self.window, dim))")
    assert zeros == Array((3, 2), "float32", False, True)


def test_unknown_callers_leave_parameters_unknown() -> None:
    index, interpreter = _module(
        """
        import jax.numpy as jnp

        __all__ = ["scale"]

        def scale(x, factor=2.0):
            return x * factor

        scale(jnp.ones(3))
        """
    )
    assert _value(index, interpreter, "scale", "x") is UNKNOWN
    assert call_graph(index).escapes(_function(index, "scale"))
    assert interpreter.call_site_params(_function(index, "scale")) is None


def test_vmap_maps_only_the_arguments_in_axes_maps() -> None:
    index, interpreter = _module(
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        AXES = (None, 0)


        def loss(w, x):
            return x * w


        @partial(jax.vmap, in_axes=(None, 1))
        def columns(w, x):
            return x * w


        def main():
            w = jnp.ones(3)
            xs = jnp.ones((8, 3))
            jax.vmap(loss, in_axes=(None, 0))(w, xs)
            jax.vmap(loss, AXES)(w, xs)
            jax.vmap(loss)(w, x=xs)
            columns(w, jnp.ones((3, 5)))
            jax.vmap(loss, in_axes=(None, 0), out_axes=1)(w, xs)
            jax.vmap(loss, in_axes=(None, 0, 0))(w, xs)
        """
    )
    assert _value(index, interpreter, "main", "jax.vmap(loss, in_axes=(None, 0))(w, xs)") == Array(
        (8, 3), "float32", traced=True
    )
    assert _value(index, interpreter, "main", "jax.vmap(loss, AXES)(w, xs)") == Array((8, 3), "float32", traced=True)
    assert _value(index, interpreter, "main", "columns(w, jnp.ones((3, 5)))") == Array((5, 3), "float32", traced=True)
    # A keyword argument is mapped over its axis 0 like the positional ones.
    keyword = _value(index, interpreter, "main", "jax.vmap(loss)(w, x=xs)")
    assert isinstance(keyword, Array) and keyword.shape is not None and len(keyword.shape) == 2
    moved = _value(index, interpreter, "main", "jax.vmap(loss, in_axes=(None, 0), out_axes=1)(w, xs)")
    assert isinstance(moved, Array) and moved.shape is None
    assert _value(index, interpreter, "main", "jax.vmap(loss, in_axes=(None, 0, 0))(w, xs)") is UNKNOWN


def test_a_value_read_from_a_half_evaluated_function_is_asked_again() -> None:
    # Evaluating `update` first asks for its call site in `train`, whose call of `update` reads the
    # defaults of `update` while its evaluation is in progress: that answer must not be kept.
    index, interpreter = _module(
        """
        import jax
        import jax.numpy as jnp


        def update(params, state, grads, decay=0.9):
            state = jax.tree.map(lambda s, g: decay * s + g, state, grads)
            return params - state, state


        step = jax.jit(update, donate_argnums=(0, 1))


        def train(params, batches):
            state = jnp.zeros_like(params)
            for x in batches:
                params, state = step(params, state, x)
            return state


        train(jnp.ones(8), [jnp.ones(8)])
        """
    )
    _value(index, interpreter, "update", "params - state")
    train = _function(index, "train")
    scope = index.scope_of(train)
    assert scope is not None
    (returned,) = [n for n in ast.walk(train) if isinstance(n, ast.Return)]
    assert interpreter.value_of(returned.value, scope) == Array((8,), "float32")
