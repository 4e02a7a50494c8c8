# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


v = jnp.arange(1024.0)
spec = pl.BlockSpec((256,), lambda i: (i,))
y = pl.pallas_call(
    copy, out_shape=jax.ShapeDtypeStruct(v.shape, v.dtype), grid=(4,), in_specs=[spec], out_specs=spec, interpret=True
)(v)
assert (y == v).all()
