# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def tiled(x, block):
    spec = pl.BlockSpec(block, lambda i: (i, 0, 0))
    return pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // block[0],),
        in_specs=[spec],
        out_specs=spec,
        interpret=True,
    )(x)


x = jnp.arange(4 * 16 * 128.0).reshape(4, 16, 128)
assert (tiled(x, (2, 16, 128)) == x).all()
