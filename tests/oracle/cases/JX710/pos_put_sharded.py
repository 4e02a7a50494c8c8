# oracle: raises AttributeError: jax.device_put_sharded is deprecated; use jax.device_put instead.
import jax
import jax.numpy as jnp

shards = [jnp.full((2,), i) for i in range(len(jax.devices()))]
stacked = jax.device_put_sharded(shards, jax.devices())  # error: JX710
