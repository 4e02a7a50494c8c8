# oracle: raises AttributeError: jax.lax.pvary was deprecated in JAX v0.8.2 and removed in JAX v0.10.0
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))


def body(x):
    return jax.lax.pvary(x, "i") * 2  # error: JX713


out = jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P("i"))(jnp.ones(1))
