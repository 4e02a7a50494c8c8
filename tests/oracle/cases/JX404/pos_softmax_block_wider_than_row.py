# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def softmax(x_ref, o_ref):
    x = x_ref[...]
    e = jnp.exp(x - jnp.max(x, axis=1, keepdims=True))
    o_ref[...] = e / jnp.sum(e, axis=1, keepdims=True)


x = jnp.ones((8, 100))
spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
y = pl.pallas_call(
    softmax, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), in_specs=[spec], out_specs=spec, interpret=True  # error: JX404
)(x)
print("matches reference:", bool(jnp.allclose(y, jax.nn.softmax(x, axis=1))))
