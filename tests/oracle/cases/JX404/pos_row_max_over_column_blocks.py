# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def block_max(x_ref, o_ref):
    o_ref[...] = jnp.max(x_ref[...], axis=1, keepdims=True)


x = jnp.ones((64, 300))
partial = pl.pallas_call(
    block_max,
    out_shape=jax.ShapeDtypeStruct((64, 3), x.dtype),
    grid=(3,),
    in_specs=[pl.BlockSpec((64, 128), lambda j: (0, j))],  # error: JX404
    out_specs=pl.BlockSpec((64, 1), lambda j: (0, j)),
    interpret=True,
)(x)
reference = jnp.stack([x[:, 0:128].max(1), x[:, 128:256].max(1), x[:, 256:].max(1)], axis=1)
print("matches reference:", bool(jnp.allclose(partial, reference)))
