# oracle: raises TypeError: <lambda>() missing 1 required positional argument: 'k'
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((16, 256))
y = pl.pallas_call(
    copy,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pl.GridSpec(
        grid=(2, 2),
        in_specs=[pl.BlockSpec((8, 128), lambda i, j: (i, j))],
        out_specs=pl.BlockSpec((8, 128), lambda i, j, k: (i, j)),  # error: JX402
    ),
    interpret=True,
)(x)
