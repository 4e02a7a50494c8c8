# oracle: runs
"""A Pallas kernel whose tile sizes come from an options dict bound with functools.partial(**options)."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def scale_rows_kernel(x_ref, o_ref, *, rows: int, factor: float):
    # `rows` is a Python int bound by the partial below: a static size, not a traced value.
    scale = jnp.full((rows, x_ref.shape[1]), factor, dtype=x_ref.dtype)
    o_ref[...] = x_ref[...] * scale


def make_options(block_rows: int) -> dict:
    return dict(rows=block_rows, factor=2.0)


def scale_rows(x: jax.Array, block_rows: int = 8) -> jax.Array:
    kernel_options = dict(rows=block_rows, factor=2.0)
    return pl.pallas_call(
        functools.partial(scale_rows_kernel, **kernel_options),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // block_rows,),
        in_specs=[pl.BlockSpec((block_rows, x.shape[1]), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((block_rows, x.shape[1]), lambda i: (i, 0)),
        interpret=True,
    )(x)


def scale_rows_from_helper(x: jax.Array) -> jax.Array:
    options = make_options(8)
    return pl.pallas_call(
        functools.partial(scale_rows_kernel, **options),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // 8,),
        in_specs=[pl.BlockSpec((8, x.shape[1]), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((8, x.shape[1]), lambda i: (i, 0)),
        interpret=True,
    )(x)


x = jnp.arange(16 * 128, dtype=jnp.float32).reshape(16, 128)
print(float(jax.jit(scale_rows)(x).sum()), float(scale_rows_from_helper(x).sum()))
