# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def double(x_ref, acc_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jnp.ones((256, 128))
acc = jnp.full((256, 128), 5.0)
spec = pl.BlockSpec((128, 128), lambda i: (i, 0))
y = pl.pallas_call(
    double,
    out_shape=jax.ShapeDtypeStruct(acc.shape, acc.dtype),
    grid=(1,),
    in_specs=[spec, pl.BlockSpec(memory_space=pl.ANY)],
    out_specs=spec,
    input_output_aliases={1: 0},
    interpret=True,
)(x, acc)
expected = acc.at[:128].set(2.0)
print("matches reference:", bool(jnp.allclose(y, expected)))
