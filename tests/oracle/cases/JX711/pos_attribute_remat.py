# oracle: raises AttributeError: jax.ad_checkpoint.remat was deprecated in JAX v0.8.2 and removed in JAX v0.10.0
import jax
import jax.ad_checkpoint
import jax.numpy as jnp


def layer(x):
    return jnp.sin(x) * 2


layer = jax.ad_checkpoint.remat(layer)  # error: JX711
