# oracle: runs
import jax
import jax.numpy as jnp


def pool(x, mode):
    return x.max() if mode == "max" else x.mean()


pool_jit = jax.jit(pool, static_argnums=1)
last = jax.jit(pool, static_argnums=-1)
print(pool_jit(jnp.arange(4.0), "max"), last(jnp.arange(4.0), "mean"))
