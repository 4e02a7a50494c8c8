# oracle: stdout 3072.0
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

INTERPRET = jax.default_backend() != "tpu"
EMBED = {"rows_per_block": 8, "dim": 128}


def gather_kernel(ids_ref, table_ref, o_ref):
    o_ref[...] = table_ref[...]


def gather_blocks(block_ids, table):
    rb, dim = EMBED["rows_per_block"], EMBED["dim"]
    grid_spec = pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=1,
        grid=(block_ids.shape[0],),
        in_specs=[pl.BlockSpec((rb, dim), lambda i, ids: (ids[i], 0))],
        out_specs=pl.BlockSpec((rb, dim), lambda i, ids: (i, 0)),
    )
    out_shape = jax.ShapeDtypeStruct((block_ids.shape[0] * rb, dim), table.dtype)
    return pl.pallas_call(gather_kernel, out_shape=out_shape, grid_spec=grid_spec, interpret=INTERPRET)(block_ids, table)


table = jnp.arange(64 * 128, dtype=jnp.float32).reshape(64, 128)
print(gather_blocks(jnp.array([3, 0], jnp.int32), table)[0, 0])
