# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jnp.ones((8, 128))
spec = pl.BlockSpec((8, 128), lambda: (0, 0))
y = pl.pallas_call(
    double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), in_specs=[spec], out_specs=spec, interpret=True
)(x)
assert (y == 2).all()
