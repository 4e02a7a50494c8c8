# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def block_sum(x_ref, o_ref):
    @pl.when(pl.program_id(0) == 0)
    def _():
        o_ref[...] = jnp.zeros_like(o_ref)

    o_ref[...] += x_ref[...]


x = jnp.ones((512, 128))
y = pl.pallas_call(
    block_sum,
    out_shape=jax.ShapeDtypeStruct((128, 128), jnp.float32),
    grid=(8,),
    in_specs=[pl.BlockSpec((128, 128), lambda i: (i, 0))],  # error: JX406
    out_specs=pl.BlockSpec((128, 128), lambda i: (0, 0)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(y, x.reshape(4, 128, 128).sum(0))))
