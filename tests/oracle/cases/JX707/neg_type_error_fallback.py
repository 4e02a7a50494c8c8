# oracle: runs
import jax.numpy as jnp


def clip(x, low, high):
    try:
        return jnp.clip(x, a_min=low, a_max=high)
    except TypeError:
        return jnp.clip(x, min=low, max=high)


print(clip(jnp.arange(5.0), 1.0, 3.0))
