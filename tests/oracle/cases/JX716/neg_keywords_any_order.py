# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


spec = pl.BlockSpec(index_map=lambda i: (i, 0), block_shape=(8, 128))
x = jnp.zeros((16, 128))
print(float(pl.pallas_call(kernel, grid=(2,), in_specs=[spec], out_specs=spec, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum()))
