# oracle: raises ValueError: Pytree for `out_specs` and `out_shape` do not match
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def split(x_ref, a_ref, b_ref):
    a_ref[...] = x_ref[...]
    b_ref[...] = -x_ref[...]


x = jnp.ones((16, 128))
spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
out = jax.ShapeDtypeStruct(x.shape, x.dtype)
a, b = pl.pallas_call(
    split,
    out_shape=(out, out),
    grid=(2,),
    in_specs=[spec],
    out_specs=spec,  # error: JX409
    interpret=True,
)(x)
