# oracle: stdout computed in: float32
import itertools

import jax
import jax.numpy as jnp


def init_params(key, sizes):
    params = []
    for fan_in, fan_out in itertools.pairwise(sizes):
        key, sub = jax.random.split(key)
        w = jax.random.normal(sub, (fan_in, fan_out), dtype=jnp.float64) / fan_in**0.5  # error: JX802
        params.append(w)
    return params


params = init_params(jax.random.key(0), [3, 5, 2])
print("computed in:", params[0].dtype)
