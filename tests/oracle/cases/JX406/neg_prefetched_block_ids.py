# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def gather(ids_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.arange(512 * 128.0).reshape(512, 128)
ids = jnp.array([3, 2, 1, 0])
y = pl.pallas_call(
    gather,
    out_shape=jax.ShapeDtypeStruct((512, 128), jnp.float32),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=1,
        grid=(4,),
        in_specs=[pl.BlockSpec((128, 128), lambda i, ids_ref: (ids_ref[i], 0))],
        out_specs=pl.BlockSpec((128, 128), lambda i, ids_ref: (i, 0)),
    ),
    interpret=True,  # noqa: JX410
)(ids, x)
print("matches reference:", bool(jnp.allclose(y, x.reshape(4, 128, 128)[::-1].reshape(512, 128))))
