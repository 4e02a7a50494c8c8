# oracle: raises AttributeError: module 'jax.experimental.pallas.tpu' has no attribute 'ANY'
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy_kernel(x_hbm, o_hbm):
    o_hbm[...] = x_hbm[...]


x = jnp.ones((8, 128))
out = pl.pallas_call(
    copy_kernel,
    in_specs=[pl.BlockSpec(memory_space=pltpu.ANY)],  # error: JX718
    out_specs=pl.BlockSpec(memory_space=pl.ANY),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
