# oracle: raises ValueError: Block shape for args[0] (= 
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


v = jnp.arange(1024.0)
y = pl.pallas_call(
    copy,
    out_shape=jax.ShapeDtypeStruct(v.shape, v.dtype),
    grid=(4,),
    in_specs=[pl.BlockSpec((1, 256), lambda i: (0, i))],  # error: JX401
    out_specs=pl.BlockSpec((256,), lambda i: (i,)),
    interpret=True,
)(v)
