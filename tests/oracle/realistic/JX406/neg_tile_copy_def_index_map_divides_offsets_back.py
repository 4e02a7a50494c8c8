# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

TILE = 32


def tile_index(i, j):
    row_start, col_start = i * TILE, j * TILE
    return (row_start // TILE, col_start // TILE)


def halve_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 0.5


def halve(x):
    rows, cols = x.shape
    return pl.pallas_call(
        halve_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(rows // TILE, cols // TILE),
        in_specs=[pl.BlockSpec((TILE, TILE), tile_index)],
        out_specs=pl.BlockSpec((TILE, TILE), lambda i, j: (i, j)),
        interpret=True,
    )(x)


x = jnp.arange(128 * 128, dtype=jnp.float32).reshape(128, 128)
print("matches reference:", bool(jnp.allclose(halve(x), x * 0.5)))
