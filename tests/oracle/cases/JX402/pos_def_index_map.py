# oracle: raises TypeError: block_of() missing 1 required positional argument: 'k'
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def block_of(i, j, k):
    return i, j


x = jnp.ones((16, 256))
y = pl.pallas_call(
    copy,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(2, 2),
    in_specs=[pl.BlockSpec((8, 128), block_of)],  # error: JX402
    out_specs=pl.BlockSpec((8, 128), lambda i, j: (i, j)),
    interpret=True,
)(x)
