# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def transpose(x_ref, o_ref):
    o_ref[...] = x_ref[...].T


x = jnp.arange(256 * 512.0).reshape(256, 512)
y = pl.pallas_call(
    transpose,
    out_shape=jax.ShapeDtypeStruct((512, 256), jnp.float32),
    grid=(2, 4),
    in_specs=[pl.BlockSpec((128, 128), lambda i, j: (i, j))],
    out_specs=pl.BlockSpec((128, 128), lambda i, j: (j, i)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(y, x.T)))
