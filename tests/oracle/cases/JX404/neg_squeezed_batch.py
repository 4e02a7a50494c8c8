# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def seq_sum(x_ref, o_ref):
    o_ref[...] = jnp.sum(x_ref[...], axis=0, keepdims=True)


x = jnp.ones((3, 100, 128))
sums = pl.pallas_call(
    seq_sum,
    out_shape=jax.ShapeDtypeStruct((3, 1, 128), x.dtype),
    grid=(3,),
    in_specs=[pl.BlockSpec((None, 100, 128), lambda b: (b, 0, 0))],
    out_specs=pl.BlockSpec((None, 1, 128), lambda b: (b, 0, 0)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(sums[:, 0], x.sum(1))))
