# oracle: runs
import jax
import jax.numpy as jnp


def apply(fn, x, *options):
    return fn(x, *options)


compiled = jax.jit(jnp.cumsum)
print(apply(compiled, jnp.arange(4.0)))
