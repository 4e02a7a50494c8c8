# oracle: raises ValueError: pytree structure error: different lengths of tuple at key path
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
x = jnp.arange(32.0).reshape(8, 4)

f = jax.shard_map(
    lambda a, b: a + b,
    mesh=mesh,
    in_specs=(P("x"), P("x"), P("x")),  # error: JX506
    out_specs=P("x"),
)
y = jax.jit(f)(x, x)
