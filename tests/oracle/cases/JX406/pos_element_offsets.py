# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.arange(512 * 128.0).reshape(512, 128)
y = pl.pallas_call(
    copy,
    out_shape=jax.ShapeDtypeStruct((512, 128), jnp.float32),
    grid=(4,),
    in_specs=[pl.BlockSpec((128, 128), lambda i: (i * 128, 0))],  # error: JX406
    out_specs=pl.BlockSpec((128, 128), lambda i: (i, 0)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(y, x)))
