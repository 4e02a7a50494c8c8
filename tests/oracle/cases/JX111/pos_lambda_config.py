# oracle: raises ValueError: Jitted function has invalid argnames {'shape'} in static_argnames
import jax
import jax.numpy as jnp

CONFIG = {"target_shape": (2, 2)}

reshape = jax.jit(lambda x, target_shape: x.reshape(target_shape), static_argnames="shape")  # error: JX111
print(reshape(jnp.ones(4), target_shape=CONFIG["target_shape"]))
