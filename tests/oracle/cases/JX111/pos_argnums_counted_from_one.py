# oracle: raises ValueError: Jitted function has static_argnums=(2,), but only accepts 2 positional arguments.
import jax
import jax.numpy as jnp


def pool(x, mode):
    return x.max() if mode == "max" else x.mean()


# The author counted the arguments from 1: `mode` is the second one.
pool_jit = jax.jit(pool, static_argnums=2)  # error: JX111
print(pool_jit(jnp.arange(4.0), "max"))
