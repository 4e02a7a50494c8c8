# oracle: raises ValueError: Block shape for args[0] (= 
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
        in_specs=[pl.BlockSpec((rows, 128), lambda i: (i, 0))],  # error: JX401
        out_specs=pl.BlockSpec((rows, 4, 128), lambda i: (i, 0, 0)),
        interpret=True,
    )(a)


row_tiles(jnp.ones((16, 4, 128)))
