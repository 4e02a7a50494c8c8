# oracle: raises ValueError: The Pallas TPU lowering currently requires that the last two dimensions of your block shape are divisible by 8 and 128 respectively, or be equal to the respective dimensions of the overall array.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def rows(x):
    return pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(8, 4),
        in_specs=[pl.BlockSpec((1, None, 128), lambda b, r: (b, r, 0))],  # error: JX407
        out_specs=pl.BlockSpec((1, None, 128), lambda b, r: (b, r, 0)),  # error: JX407
    )(x)


x = jax.ShapeDtypeStruct((8, 4, 128), jnp.float32)
jax.export.export(jax.jit(rows), platforms=["tpu"])(x)
