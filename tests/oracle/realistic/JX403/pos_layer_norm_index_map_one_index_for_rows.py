# oracle: raises ValueError: Index map function <lambda> at
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

BLOCK_ROWS = 16
HIDDEN = 128


def layer_norm_kernel(x_ref, o_ref):
    x = x_ref[...]
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    o_ref[...] = (x - mean) * jax.lax.rsqrt(var + 1e-5)


def row_spec():
    return pl.BlockSpec((BLOCK_ROWS, HIDDEN), lambda i: (i,))


def layer_norm(x):
    return pl.pallas_call(
        layer_norm_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // BLOCK_ROWS,),
        in_specs=[row_spec()],  # error: JX403
        out_specs=row_spec(),  # error: JX403
        interpret=True,
    )(x)


print(layer_norm(jnp.arange(64 * HIDDEN, dtype=jnp.float32).reshape(64, HIDDEN))[0, :2])
