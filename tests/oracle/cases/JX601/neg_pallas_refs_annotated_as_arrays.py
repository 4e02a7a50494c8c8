# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def store_scaled(src: jax.Array, dst: jax.Array, factor: float) -> None:
    dst[...] = src[...] * factor


def kernel(x_ref: jax.Array, o_ref: jax.Array) -> None:
    store_scaled(x_ref, o_ref, 2.0)
    o_ref[0, 0] += 1.0


x = jnp.ones((8, 128))
y = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
print(y[0, 0], y[1, 1])
