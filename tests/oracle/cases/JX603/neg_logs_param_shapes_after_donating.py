# oracle: stdout shapes: {'b': (3,), 'w': (4, 3)}
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnums=0)
def sgd(params, grads):
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def step(params):
    grads = jax.tree.map(jnp.ones_like, params)
    new_params = sgd(params, grads)
    shapes = jax.tree.map(lambda p: p.shape, params)
    return new_params, shapes


params = {"w": jnp.zeros((4, 3)), "b": jnp.zeros(3)}
params, shapes = step(params)
print("shapes:", shapes)
