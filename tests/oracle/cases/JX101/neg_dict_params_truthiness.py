# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def apply(params, x):
    if params:
        x = x * params["w"]
    if isinstance(params, dict) and "b" in params:
        x = x + params["b"]
    return x


apply({"w": jnp.float32(2.0), "b": jnp.float32(1.0)}, jnp.arange(3.0))
