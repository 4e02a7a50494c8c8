# oracle: raises TypeError: row_block() takes 1 positional argument but 2 were given
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

BLOCK = (32, 128)


def row_block(i):
    return (i, 0)


def sum_kernel(*refs):
    *in_refs, o_ref = refs
    acc = in_refs[0][...]
    for ref in in_refs[1:]:
        acc = acc + ref[...]
    o_ref[...] = acc


def fused_sum(*inputs):
    rows, cols = inputs[0].shape
    in_specs = [pl.BlockSpec(BLOCK, row_block) for _ in inputs]  # error: JX402
    return pl.pallas_call(
        sum_kernel,
        out_shape=jax.ShapeDtypeStruct(inputs[0].shape, inputs[0].dtype),
        grid=(rows // BLOCK[0], cols // BLOCK[1]),
        in_specs=in_specs,
        out_specs=pl.BlockSpec(BLOCK, lambda i, j: (i, j)),
        interpret=True,
    )(*inputs)


a = jnp.ones((128, 256))
print(fused_sum(a, 2 * a, 3 * a)[0, :2])
