# oracle: raises ValueError: The Pallas TPU lowering currently requires that the last two dimensions of your block shape are divisible by 8 and 128 respectively, or be equal to the respective dimensions of the overall array.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def tiles(x):
    spec = pl.BlockSpec((8, 100), lambda i, j: (i, j))
    return pl.pallas_call(
        copy, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(8, 5), in_specs=[spec], out_specs=spec  # error: JX407
    )(x)


x = jax.ShapeDtypeStruct((64, 500), jnp.float32)
jax.export.export(jax.jit(tiles), platforms=["tpu"])(x)
