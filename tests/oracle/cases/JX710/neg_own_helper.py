# oracle: runs
import jax
import jax.numpy as jnp


def device_put_replicated(x, devices):
    return [jax.device_put(x, d) for d in devices]


print(len(device_put_replicated(jnp.ones(2), jax.devices()[:2])))
