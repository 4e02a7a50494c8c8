# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.arange(128 * 512.0).reshape(128, 512)
y = pl.pallas_call(
    copy,
    out_shape=jax.ShapeDtypeStruct((128, 512), jnp.float32),
    grid=(1, 4),
    in_specs=[pl.BlockSpec((128, 128), lambda i, j: (i, j * 128))],  # error: JX406
    out_specs=pl.BlockSpec((128, 128), lambda i, j: (i, j)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(y, x)))
