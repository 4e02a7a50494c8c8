# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def tiles(x):
    spec = pl.BlockSpec((192, 128), lambda i: (i, 0))
    return pl.pallas_call(
        copy, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(pl.cdiv(1000, 192),), in_specs=[spec], out_specs=spec  # noqa: JX404 -- the tail is dropped on write
    )(x)


x = jax.ShapeDtypeStruct((1000, 128), jnp.float32)
jax.export.export(jax.jit(tiles), platforms=["tpu"])(x)
