# oracle: stdout result [0. 2. 4.]
import jax
import jax.numpy as jnp


@jax.jit
def double(x):
    return x * 2.0


result = double(jnp.arange(3.0))
print("result", result)
