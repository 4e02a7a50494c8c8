# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def gather(ids_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.arange(16 * 128.0).reshape(16, 128)
ids = jnp.array([1, 0])
y = pl.pallas_call(
    gather,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=1,
        grid=(2,),
        in_specs=[pl.BlockSpec((8, 128), lambda i, ids_ref: (ids_ref[i], 0))],
        out_specs=pl.BlockSpec((8, 128), lambda i, ids_ref: (i, 0)),
    ),
    interpret=True,  # noqa: JX410
)(ids, x)
assert (y[:8] == x[8:]).all()
