# oracle: raises AttributeError: module 'jax' has no attribute 'tree_map'
import jax
import jax.numpy as jnp


def init_params(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [
        {"w": jax.random.normal(k, (m, n)) * 0.1, "b": jnp.zeros(n)}
        for k, m, n in zip(keys, sizes[:-1], sizes[1:])
    ]


def sgd(params, grads, lr=0.01):
    return jax.tree_map(lambda p, g: p - lr * g, params, grads)  # error: JX701


params = init_params(jax.random.key(0), [4, 8, 2])
grads = jax.tree_util.tree_map(jnp.ones_like, params)
params = sgd(params, grads)
