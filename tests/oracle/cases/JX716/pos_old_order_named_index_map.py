# oracle: raises TypeError: 'function' object is not iterable
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def row_block(i):
    return (i, 0)


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


x = jnp.zeros((16, 128))
out = pl.pallas_call(
    kernel,
    grid=(2,),
    in_specs=[pl.BlockSpec(row_block, (8, 128))],  # error: JX716
    out_specs=pl.BlockSpec((8, 128), row_block),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    interpret=True,
)(x)
