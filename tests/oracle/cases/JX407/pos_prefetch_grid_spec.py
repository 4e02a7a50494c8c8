# oracle: raises ValueError: The Pallas TPU lowering currently requires that the last two dimensions of your block shape are divisible by 8 and 128 respectively, or be equal to the respective dimensions of the overall array.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def gather(ids_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


def gathered(ids, x):
    return pl.pallas_call(
        gather,
        out_shape=jax.ShapeDtypeStruct((64, 400), x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=1,
            grid=(4, 2),
            in_specs=[pl.BlockSpec((16, 200), lambda i, j, ids_ref: (ids_ref[i], j))],  # error: JX407
            out_specs=pl.BlockSpec((16, 200), lambda i, j, ids_ref: (i, j)),  # error: JX407
        ),
    )(ids, x)


ids = jax.ShapeDtypeStruct((4,), jnp.int32)
x = jax.ShapeDtypeStruct((64, 400), jnp.float32)
jax.export.export(jax.jit(gathered), platforms=["tpu"])(ids, x)
