# oracle: raises TypeError: 'function' object is not iterable
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

SPECS = {"rows": pl.BlockSpec(lambda i: (i, 0), (8, 128))}  # error: JX716


def kernel(x_ref, o_ref):
    o_ref[...] = -x_ref[...]


x = jnp.ones((16, 128))
pl.pallas_call(
    kernel, grid=(2,), in_specs=[SPECS["rows"]], out_specs=SPECS["rows"], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True
)(x)
