# oracle: raises ValueError: `in_specs` must be a tuple or a list
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jnp.ones((16, 128))
spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
y = pl.pallas_call(
    double,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(2,),
    in_specs=spec,  # error: JX409
    out_specs=spec,
    interpret=True,
)(x)
