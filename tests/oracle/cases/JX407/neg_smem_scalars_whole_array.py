# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def scale(s_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] * s_ref[0]


def scaled(s, x):
    spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
    return pl.pallas_call(
        scale,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(4,),
        in_specs=[pl.BlockSpec(memory_space=pltpu.SMEM), spec],
        out_specs=spec,
    )(s, x)


s = jax.ShapeDtypeStruct((3,), jnp.float32)
x = jax.ShapeDtypeStruct((32, 128), jnp.float32)
jax.export.export(jax.jit(scaled), platforms=["tpu"])(s, x)
