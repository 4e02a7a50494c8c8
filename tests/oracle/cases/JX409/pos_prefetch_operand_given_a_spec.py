# oracle: raises ValueError: Pytree for `in_specs` and `inputs` do not match
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def gather(ids_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((16, 128))
ids = jnp.array([1, 0])
spec = pl.BlockSpec((8, 128), lambda i, ids_ref: (ids_ref[i], 0))
y = pl.pallas_call(
    gather,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=1,
        grid=(2,),
        in_specs=[pl.BlockSpec(memory_space=pltpu.SMEM), spec],  # error: JX409
        out_specs=pl.BlockSpec((8, 128), lambda i, ids_ref: (i, 0)),
    ),
    interpret=True,  # noqa: JX410
)(ids, x)
