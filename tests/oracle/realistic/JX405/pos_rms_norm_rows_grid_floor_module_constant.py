# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

BLOCK_ROWS = 48
HIDDEN = 256
EPS = 1e-6


def rms_norm_kernel(x_ref, g_ref, o_ref):
    x = x_ref[...]
    inv = jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + EPS)
    o_ref[...] = x * inv * g_ref[...]


def rms_norm(x, gamma):
    rows = x.shape[0]
    return pl.pallas_call(
        rms_norm_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(rows // BLOCK_ROWS,),  # error: JX405
        in_specs=[pl.BlockSpec((BLOCK_ROWS, HIDDEN), lambda i: (i, 0)), pl.BlockSpec((1, HIDDEN), lambda i: (0, 0))],
        out_specs=pl.BlockSpec((BLOCK_ROWS, HIDDEN), lambda i: (i, 0)),
        interpret=True,
    )(x, gamma)


def rms_norm_reference(x, gamma):
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + EPS) * gamma


x = jax.random.normal(jax.random.PRNGKey(0), (200, HIDDEN))
gamma = jnp.ones((1, HIDDEN))
print("matches reference:", bool(jnp.allclose(rms_norm(x, gamma), rms_norm_reference(x, gamma), atol=1e-5)))
