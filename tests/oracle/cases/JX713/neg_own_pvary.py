# oracle: runs
import jax.numpy as jnp


def pvary(x, axis):
    return x


print(pvary(jnp.ones(2), "i"))
