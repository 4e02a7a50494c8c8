# oracle: raises AttributeError: arr.device_buffer has been deprecated. Use arr.addressable_data(0)
import jax
import jax.numpy as jnp

weights = jnp.ones((4, 4))
buffer = weights.device_buffer  # error: JX706
print(buffer.shape)
