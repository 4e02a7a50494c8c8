# oracle: stdout local block JitTracer(
import jax
import jax.numpy as jnp
from jax.sharding import AxisType
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))


def local_double(block):
    print("local block", block)  # error: JX106
    return block * 2.0


double = jax.jit(jax.shard_map(local_double, mesh=mesh, in_specs=P("x"), out_specs=P("x")))
double(jnp.arange(8.0))
