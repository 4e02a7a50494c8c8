# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def row_sums(x_ref, o_ref):
    @pl.when(pl.program_id(0) == 0)
    def _():
        o_ref[...] = jnp.zeros_like(o_ref)

    o_ref[...] += jnp.sum(x_ref[...], axis=1, keepdims=True)


x = jnp.ones((8, 1000))
bk = 256
sums = pl.pallas_call(
    row_sums,
    out_shape=jax.ShapeDtypeStruct((8, 1), x.dtype),
    grid=(x.shape[1] // bk,),  # error: JX405
    in_specs=[pl.BlockSpec((8, bk), lambda k: (0, k))],
    out_specs=pl.BlockSpec((8, 1), lambda k: (0, 0)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(sums[:, 0], x.sum(1))))
