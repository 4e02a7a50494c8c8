# oracle: raises ValueError: Block shape for args[0] (= 
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def add(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


x = jnp.ones((16, 128))
bias = jnp.ones((2, 8, 128))
rows = pl.BlockSpec((8, 128), lambda i: (i, 0))
y = pl.pallas_call(
    add,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(2,),
    in_specs=[rows, rows],  # error: JX401
    out_specs=rows,
    interpret=True,
)(bias, x)
