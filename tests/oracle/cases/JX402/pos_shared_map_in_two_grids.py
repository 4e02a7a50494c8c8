# oracle: raises TypeError: <lambda>() missing 1 required positional argument: 'j'
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jnp.ones((16, 256))
tile = pl.BlockSpec((8, 128), lambda i, j: (i, j))
out = jax.ShapeDtypeStruct(x.shape, x.dtype)
y = pl.pallas_call(double, out_shape=out, grid=(2, 2), in_specs=[tile], out_specs=tile, interpret=True)(x)
rows = pl.BlockSpec((8, 256), lambda i: (i, 0))
z = pl.pallas_call(double, out_shape=out, grid=(2,), in_specs=[tile], out_specs=rows, interpret=True)(x)  # error: JX402
