# oracle: raises AttributeError: arr.device_buffers has been deprecated. Use [x.data for x in arr.addressable_shards]
import jax
import jax.numpy as jnp

x = jax.device_put(jnp.arange(8.0))
shapes = [b.shape for b in x.device_buffers]  # error: JX706
