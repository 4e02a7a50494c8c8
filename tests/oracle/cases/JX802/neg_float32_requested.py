# oracle: stdout computed in: float32
import jax
import jax.numpy as jnp


def init_params(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [
        jax.random.normal(k, (fan_in, fan_out), dtype=jnp.float32)
        for k, fan_in, fan_out in zip(keys, sizes[:-1], sizes[1:], strict=True)
    ]


params = init_params(jax.random.key(0), [3, 5, 2])
print("computed in:", params[0].astype(float).dtype)
