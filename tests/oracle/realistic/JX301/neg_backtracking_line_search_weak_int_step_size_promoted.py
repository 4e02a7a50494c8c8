# oracle: stdout x
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class LineSearchState(NamedTuple):
    step_size: jax.Array
    it: jax.Array


def objective(x):
    return jnp.sum((x - 3.0) ** 2)


class BacktrackingLineSearch:
    def __init__(self, shrink=0.5, c=1e-4, max_iter=20):
        self.shrink, self.c, self.max_iter = shrink, c, max_iter

    def init(self):
        return LineSearchState(step_size=jnp.array(1), it=jnp.array(0))

    def search(self, x, g):
        def not_sufficient(state):
            lhs = objective(x - state.step_size * g)
            rhs = objective(x) - self.c * state.step_size * jnp.dot(g, g)
            return (lhs > rhs) & (state.it < self.max_iter)

        def shrink(state):
            return LineSearchState(state.step_size * self.shrink, state.it + 1)

        return lax.while_loop(not_sufficient, shrink, self.init()).step_size


@jax.jit
def gd_step(x):
    g = jax.grad(objective)(x)
    return x - BacktrackingLineSearch().search(x, g) * g


print("x", gd_step(jnp.zeros(2)))
