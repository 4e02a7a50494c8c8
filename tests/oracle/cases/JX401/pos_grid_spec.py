# oracle: raises ValueError: Block shape for args[0] (= 
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((32, 256))
y = pl.pallas_call(
    copy,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pl.GridSpec(
        grid=(4, 2),
        in_specs=[pl.BlockSpec((8, 128, 1), lambda i, j: (i, j, 0))],  # error: JX401
        out_specs=pl.BlockSpec((8, 128), lambda i, j: (i, j)),
    ),
    interpret=True,
)(x)
