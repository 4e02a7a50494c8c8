# oracle: stdout update count 1
from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax


class ScaleByStepState(NamedTuple):
    count: jax.Array


def log_count(count):
    print("update count", int(count))


def scale_by_inverse_sqrt_step():
    def init_fn(params):
        return ScaleByStepState(count=jnp.zeros([], jnp.int32))

    def update_fn(updates, state, params=None):
        count = state.count + 1
        scale = 1.0 / jnp.sqrt(count.astype(jnp.float32))
        updates = jax.tree.map(lambda u: u * scale, updates)
        jax.debug.callback(log_count, count)
        return updates, ScaleByStepState(count)

    return optax.GradientTransformation(init_fn, update_fn)


tx = optax.chain(scale_by_inverse_sqrt_step(), optax.scale(-0.1))
params = {"w": jnp.ones(2), "b": jnp.zeros(())}


@jax.jit
def step(params, opt_state):
    grads = jax.grad(lambda p: jnp.sum(p["w"] ** 2) + p["b"] ** 2)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


params, opt_state = step(params, tx.init(params))
jax.block_until_ready(params)
