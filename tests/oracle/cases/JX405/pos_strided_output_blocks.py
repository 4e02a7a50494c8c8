# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jnp.ones((256, 128))
y = pl.pallas_call(
    double,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(2,),
    in_specs=[pl.BlockSpec((64, 128), lambda i: (2 * i, 0))],
    out_specs=pl.BlockSpec((64, 128), lambda i: (2 * i, 0)),  # error: JX405
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(y, x * 2)))
