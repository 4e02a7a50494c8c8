# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def rows(x):
    spec = pl.BlockSpec((None, 8, 128), lambda b, r: (b, r, 0))
    return pl.pallas_call(copy, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(4, 2), in_specs=[spec], out_specs=spec)(x)


x = jax.ShapeDtypeStruct((4, 16, 128), jnp.float32)
jax.export.export(jax.jit(rows), platforms=["tpu"])(x)
