# oracle: raises ValueError: Pytree for `in_specs` and `inputs` do not match
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

BLOCK_ROWS = 32
HIDDEN = 128
ROW = pl.BlockSpec((BLOCK_ROWS, HIDDEN), lambda i: (i, 0))
WHOLE = pl.BlockSpec((1, HIDDEN), lambda i: (0, 0))
OPERAND_SPECS = {"x": ROW, "scale": WHOLE}


def scaled_residual_kernel(x_ref, scale_ref, res_ref, o_ref):
    o_ref[...] = x_ref[...] * scale_ref[...] + res_ref[...]


def scaled_residual(x, scale, residual):
    return pl.pallas_call(
        scaled_residual_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // BLOCK_ROWS,),
        in_specs=list(OPERAND_SPECS.values()),  # error: JX409
        out_specs=ROW,
        interpret=True,
    )(x, scale, residual)


x = jnp.ones((128, HIDDEN))
print(scaled_residual(x, jnp.full((1, HIDDEN), 2.0), x)[0, :2])
