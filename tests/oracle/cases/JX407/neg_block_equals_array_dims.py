# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def tiles(x):
    spec = pl.BlockSpec((250, 256), lambda i, j: (0, j))
    return pl.pallas_call(copy, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1, 2), in_specs=[spec], out_specs=spec)(x)


x = jax.ShapeDtypeStruct((250, 512), jnp.float32)
jax.export.export(jax.jit(tiles), platforms=["tpu"])(x)
