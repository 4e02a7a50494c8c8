# oracle: raises AttributeError: jax.device_put_replicated is deprecated; use jax.device_put instead.
import jax
import jax.numpy as jnp


def replicate(tree):
    devices = jax.local_devices()
    return jax.tree.map(lambda x: jax.device_put_replicated(x, devices), tree)  # error: JX710


replicate({"w": jnp.ones(3)})
