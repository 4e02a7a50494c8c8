# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

TILING = {"block_m": 64, "block_n": 128}


def matmul_kernel(a_ref, b_ref, o_ref):
    o_ref[...] = a_ref[...] @ b_ref[...]


def matmul(a, b, tiling=TILING):
    bm, bn = tiling["block_m"], tiling["block_n"]
    m, k = a.shape
    n = b.shape[1]
    return pl.pallas_call(
        matmul_kernel,
        out_shape=jax.ShapeDtypeStruct((m, n), a.dtype),
        grid=(m // bm, n // bn),
        in_specs=[
            pl.BlockSpec((bm, k), lambda i, j: (i, 0)),
            pl.BlockSpec((k, bn), lambda i, j: (0, j)),
        ],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j: (i, j)),
        interpret=True,
    )(a, b)


a = jax.random.normal(jax.random.PRNGKey(0), (256, 64))
b = jax.random.normal(jax.random.PRNGKey(1), (64, 256))
print("matches reference:", bool(jnp.allclose(matmul(a, b), a @ b, atol=1e-4)))
