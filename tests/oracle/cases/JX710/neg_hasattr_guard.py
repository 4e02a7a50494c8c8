# oracle: runs
import jax
import jax.numpy as jnp


def replicate(x):
    if hasattr(jax, "device_put_replicated"):
        return jax.device_put_replicated(x, jax.devices())
    return jax.device_put(x)


print(replicate(jnp.ones(2)).shape)
