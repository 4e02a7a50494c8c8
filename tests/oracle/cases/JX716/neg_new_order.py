# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
x = jnp.ones((16, 128))
y = pl.pallas_call(kernel, grid=(2,), in_specs=[spec], out_specs=spec, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
print(float(y.sum()))
