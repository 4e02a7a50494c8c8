# oracle: runs
import jax
import jax.numpy as jnp


def tile_to(x, n):
    reps = int(n) // x.shape[0]
    return jnp.tile(x, reps)


tile_to_jit = jax.jit(tile_to, static_argnums=1)
tile_to_jit(jnp.arange(3.0), 6)
