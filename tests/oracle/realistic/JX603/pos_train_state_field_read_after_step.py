# oracle: raises RuntimeError: Array has been deleted
from typing import NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    params: dict
    momentum: dict
    step: jax.Array


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def train_step(state, x, y):
    grads = jax.grad(loss_fn)(state.params, x, y)
    momentum = jax.tree.map(lambda m, g: 0.9 * m + g, state.momentum, grads)
    params = jax.tree.map(lambda p, m: p - 0.01 * m, state.params, momentum)
    return TrainState(params, momentum, state.step + 1)


step_fn = jax.jit(train_step, donate_argnums=0)
params = {"w": jnp.zeros((4, 1)), "b": jnp.zeros(1)}
state = TrainState(params, jax.tree.map(jnp.zeros_like, params), jnp.array(0))
x, y = jnp.ones((8, 4)), jnp.ones((8, 1))
new_state = step_fn(state, x, y)
print("loss before:", loss_fn(state.params, x, y))  # error: JX603
print("loss after:", loss_fn(new_state.params, x, y))
