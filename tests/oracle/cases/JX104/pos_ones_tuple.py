# oracle: raises TypeError: Shapes must be 1D sequences of concrete values of integer type
import jax
import jax.numpy as jnp


@jax.jit
def make_block(x):
    k = jnp.argmax(x) + 1
    return jnp.ones((k, 3))  # error: JX104


make_block(jnp.arange(3.0))
