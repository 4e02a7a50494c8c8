# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

MATMUL_TILES = {"bm": 64, "bn": 64, "bk": 128}


def matmul_kernel(a_ref, b_ref, o_ref):
    @pl.when(pl.program_id(2) == 0)
    def _():
        o_ref[...] = jnp.zeros_like(o_ref)

    o_ref[...] += a_ref[...] @ b_ref[...]


def matmul(a, b, tiles=MATMUL_TILES):
    (m, k), n = a.shape, b.shape[1]
    bm, bn, bk = tiles["bm"], tiles["bn"], tiles["bk"]
    return pl.pallas_call(
        matmul_kernel,
        out_shape=jax.ShapeDtypeStruct((m, n), a.dtype),
        grid=(m // bm, n // bn, pl.cdiv(k, bk)),
        in_specs=[
            pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk)),  # error: JX404
            pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j)),  # error: JX404
        ],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j, kk: (i, j)),
        interpret=True,
    )(a, b)


a = jnp.ones((128, 320))
b = jnp.ones((320, 128))
print("matches reference:", bool(jnp.allclose(matmul(a, b), a @ b)))
