# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def matmul(x_ref, y_ref, o_ref):
    @pl.when(pl.program_id(0) == 0)
    def _():
        o_ref[...] = jnp.zeros_like(o_ref)

    o_ref[...] += jnp.dot(x_ref[...], y_ref[...])


x = jnp.ones((128, 300))
y = jnp.ones((300, 128))
out = pl.pallas_call(
    matmul,
    out_shape=jax.ShapeDtypeStruct((128, 128), jnp.float32),
    grid=(pl.cdiv(300, 128),),
    in_specs=[
        pl.BlockSpec((128, 128), lambda k: (0, k)),  # error: JX404
        pl.BlockSpec((128, 128), lambda k: (k, 0)),  # error: JX404
    ],
    out_specs=pl.BlockSpec((128, 128), lambda k: (0, 0)),
    interpret=True,
)(x, y)
print("matches reference:", bool(jnp.allclose(out, x @ y)))
