# oracle: raises ValueError: Block shape for args[0] (= 
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def scale(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 0.5


x = jnp.ones((64, 256))
block = (16,)
y = pl.pallas_call(
    scale,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(4,),
    in_specs=[pl.BlockSpec(block, lambda i: (i,))],  # error: JX401
    out_specs=pl.BlockSpec((16, 256), lambda i: (i, 0)),
    interpret=True,
)(x)
