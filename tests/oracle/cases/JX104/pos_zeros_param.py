# oracle: raises TypeError: Shapes must be 1D sequences of concrete values of integer type
import jax
import jax.numpy as jnp


@jax.jit
def pad_to(x, n):
    padding = jnp.zeros(n)  # error: JX104
    return jnp.concatenate([x, padding])


pad_to(jnp.arange(3.0), 5)
