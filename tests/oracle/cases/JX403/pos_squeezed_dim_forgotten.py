# oracle: raises ValueError: Index map function <lambda> at 
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((4, 16, 128))
y = pl.pallas_call(
    copy,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(4, 2),
    in_specs=[pl.BlockSpec((None, 8, 128), lambda b, i: (i, 0))],  # error: JX403
    out_specs=pl.BlockSpec((None, 8, 128), lambda b, i: (b, i, 0)),
    interpret=True,
)(x)
