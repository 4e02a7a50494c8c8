# oracle: raises ValueError: The Pallas TPU lowering currently requires that the last two dimensions of your block shape are divisible by 8 and 128 respectively, or be equal to the respective dimensions of the overall array.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


out = jax.ShapeDtypeStruct((80, 384), jnp.float32)
call = pl.pallas_call(
    copy,
    out_shape=out,
    grid=(4, 3),
    in_specs=[pl.BlockSpec((20, 128), lambda i, j: (i, j))],
    out_specs=pl.BlockSpec((20, 128), lambda i, j: (i, j)),  # error: JX407
    compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel")),
)
jax.export.export(jax.jit(call), platforms=["tpu"])(out)
