# oracle: raises TypeError: jit() got some positional-only arguments passed as keyword arguments: 'fun'
import jax
import jax.numpy as jnp

step = jax.jit(fun=lambda x: x + 1)  # error: JX708
