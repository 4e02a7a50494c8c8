# oracle: raises ValueError: Block shape for args[0] (=
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

BLOCK_T = 128
D_MODEL = 256
SPECS = {
    "x": pl.BlockSpec((None, BLOCK_T, D_MODEL), lambda b, t: (b, t, 0)),
    "bias": pl.BlockSpec((D_MODEL,), lambda b, t: (0,)),
}
OPERANDS = ("bias", "x")


def bias_add_kernel(x_ref, bias_ref, o_ref):
    o_ref[...] = x_ref[...] + bias_ref[...]


def bias_add(x, bias):
    batch, seq, _ = x.shape
    return pl.pallas_call(
        bias_add_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(batch, seq // BLOCK_T),
        in_specs=[SPECS[name] for name in OPERANDS],  # error: JX401
        out_specs=SPECS["x"],
        interpret=True,
    )(x, bias)


print(bias_add(jnp.ones((2, 512, D_MODEL)), jnp.arange(D_MODEL, dtype=jnp.float32))[0, 0, :3])
