# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def block_sum(x_ref, o_ref):
    o_ref[...] = jnp.sum(x_ref[...], keepdims=True)


v = jnp.ones(1000)
partial = pl.pallas_call(
    block_sum,
    out_shape=jax.ShapeDtypeStruct((4,), v.dtype),
    grid=(4,),
    in_specs=[pl.BlockSpec((250,), lambda i: (i,))],
    out_specs=pl.BlockSpec((1,), lambda i: (i,)),
    interpret=True,
)(v)
print("matches reference:", bool(jnp.allclose(partial.sum(), v.sum())))
