# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


BLOCK = 64
x = jnp.arange(256 * 128.0).reshape(256, 128)
y = pl.pallas_call(
    copy,
    out_shape=jax.ShapeDtypeStruct((256, 128), jnp.float32),
    grid=(256 // BLOCK,),
    in_specs=[pl.BlockSpec((BLOCK, 128), lambda i: (BLOCK * i, 0))],  # error: JX406
    out_specs=pl.BlockSpec((BLOCK, 128), lambda i: (i, 0)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(y, x)))
