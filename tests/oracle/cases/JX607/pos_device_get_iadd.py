# oracle: raises ValueError: output array is read-only
import jax
import jax.numpy as jnp

scores = jax.device_get(jnp.ones(4))
scores += 1.0  # error: JX607
