# oracle: runs
import jax
import jax.numpy as jnp


def tile_rows(x, rows):
    return jnp.broadcast_to(x, (rows, x.shape[0])).reshape(rows, -1) + jnp.zeros(rows)[:, None]


tile_rows_jit = jax.jit(tile_rows, static_argnums=1)
tile_rows_jit(jnp.arange(3.0), 2)
