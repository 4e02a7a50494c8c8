# oracle: stdout On cpu:1 at mesh coordinates
import jax
import jax.numpy as jnp
from jax.sharding import AxisType
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))


def normalize_block(block):
    print("device block", block)  # eager shard_map: each device's values, on every call
    return block / jnp.maximum(block.max(), 1.0)


normalize = jax.shard_map(normalize_block, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
for step in range(2):
    normalize(jnp.arange(8.0) + step)
