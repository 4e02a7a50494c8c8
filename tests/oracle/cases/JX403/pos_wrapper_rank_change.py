# oracle: raises ValueError: Index map function <lambda> at 
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def tiled(x, block):
    return pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // block[0],),
        in_specs=[pl.BlockSpec(block, lambda i: (i, 0))],  # error: JX403
        out_specs=pl.BlockSpec(block, lambda i: (i, 0)),  # error: JX403
        interpret=True,
    )(x)


tiled(jnp.ones((4, 16, 128)), (2, 16, 128))
