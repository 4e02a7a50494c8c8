# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((250, 512))
spec = pl.BlockSpec((50, 256), lambda i, j: (i, j))
y = pl.pallas_call(
    copy,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(5, 2),
    in_specs=[spec],
    out_specs=spec,
    interpret=True,  # noqa: JX410 -- a CPU check of the kernel's logic
)(x)
assert (y == x).all()
