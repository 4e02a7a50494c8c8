# oracle: raises TypeError: <lambda>() takes 2 positional arguments but 3 were given
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def gather(ids_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((16, 256))
ids = jnp.array([1, 0])
y = pl.pallas_call(
    gather,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=1,
        grid=(2, 2),
        in_specs=[pl.BlockSpec((8, 128), lambda i, j: (i, j))],  # error: JX402
        out_specs=pl.BlockSpec((8, 128), lambda i, j, ids_ref: (i, j)),
    ),
    interpret=True,  # noqa: JX410
)(ids, x)
