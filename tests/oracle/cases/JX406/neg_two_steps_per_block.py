# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def half(x_ref, o_ref):
    o_ref[...] = x_ref[pl.ds(pl.program_id(0) % 2 * 64, 64), :]


x = jnp.arange(512 * 128.0).reshape(512, 128)
y = pl.pallas_call(
    half,
    out_shape=jax.ShapeDtypeStruct((512, 128), jnp.float32),
    grid=(8,),
    in_specs=[pl.BlockSpec((128, 128), lambda i: (i // 2, 0))],
    out_specs=pl.BlockSpec((64, 128), lambda i: (i, 0)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(y, x)))
