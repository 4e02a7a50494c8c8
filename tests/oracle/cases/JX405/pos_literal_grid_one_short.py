# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jnp.ones((1024, 128))
spec = pl.BlockSpec((256, 128), lambda i: (i, 0))
y = pl.pallas_call(
    double,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(3,),  # error: JX405
    in_specs=[spec],
    out_specs=spec,
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(y, x * 2)))
