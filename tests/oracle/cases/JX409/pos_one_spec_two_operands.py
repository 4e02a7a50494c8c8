# oracle: raises ValueError: Pytree for `in_specs` and `inputs` do not match
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def add(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


x = jnp.ones((16, 128))
spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
y = pl.pallas_call(
    add,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(2,),
    in_specs=[spec],  # error: JX409
    out_specs=spec,
    interpret=True,
)(x, x)
