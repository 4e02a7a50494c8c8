# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def row_tiles(a, rows=8):
    return pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(a.shape, a.dtype),
        grid=(a.shape[0] // rows,),
        in_specs=[pl.BlockSpec((rows, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((rows, 128), lambda i: (i, 0)),
        interpret=True,
    )(a)


x = jnp.arange(32 * 128.0).reshape(32, 128)
assert (row_tiles(x) == x).all()
