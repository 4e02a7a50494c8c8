# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.arange(512 * 128.0).reshape(512, 128)
spec = pl.BlockSpec((128, 128), lambda i: (jnp.minimum(i, 3), 0))
y = pl.pallas_call(
    copy, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(6,), in_specs=[spec], out_specs=spec, interpret=True
)(x)
print("matches reference:", bool(jnp.allclose(y, x)))
