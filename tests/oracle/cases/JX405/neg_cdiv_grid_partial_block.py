# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jnp.ones((1000, 128))
spec = pl.BlockSpec((192, 128), lambda i: (i, 0))
y = pl.pallas_call(
    double,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(pl.cdiv(1000, 192),),
    in_specs=[spec],  # noqa: JX404 -- elementwise: the padding only reaches dropped writes
    out_specs=spec,
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(y, x * 2)))
