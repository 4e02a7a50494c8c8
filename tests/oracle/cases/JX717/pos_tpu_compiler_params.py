# oracle: raises AttributeError: module 'jax.experimental.pallas.tpu' has no attribute 'TPUCompilerParams'
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

PARALLEL = ("parallel",)


def build(kernel, shape):
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(shape, jnp.float32),
        compiler_params=pltpu.TPUCompilerParams(dimension_semantics=PARALLEL),  # error: JX717
    )


build(lambda o_ref: None, (8, 128))
