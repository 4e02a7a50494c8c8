# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


cache = jnp.ones((4096, 128))
spec = pl.BlockSpec((256, 128), lambda i: (i, 0))
y = pl.pallas_call(
    double,
    out_shape=jax.ShapeDtypeStruct((1024, 128), cache.dtype),
    grid=(4,),
    in_specs=[spec],
    out_specs=spec,
    interpret=True,
)(cache)
print("matches reference:", bool(jnp.allclose(y, cache[:1024] * 2)))
