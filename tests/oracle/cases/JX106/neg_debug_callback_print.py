# oracle: stdout host sees [0. 2. 4.]
import jax
import jax.numpy as jnp


@jax.jit
def double(x):
    y = x * 2.0
    jax.debug.callback(lambda v: print("host sees", v), y)
    return y


double(jnp.arange(3.0))
