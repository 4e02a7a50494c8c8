# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def seq_sum(x_ref, o_ref):
    o_ref[...] = jnp.sum(x_ref[...], axis=0, keepdims=True)


x = jnp.ones((2, 100, 128))
partial = pl.pallas_call(
    seq_sum,
    out_shape=jax.ShapeDtypeStruct((2, 2, 128), x.dtype),
    grid=(2, 2),
    in_specs=[pl.BlockSpec((None, 64, 128), lambda b, s: (b, s, 0))],  # error: JX404
    out_specs=pl.BlockSpec((None, 1, 128), lambda b, s: (b, s, 0)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(partial.sum(1), x.sum(1))))
