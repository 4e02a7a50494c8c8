# oracle: raises TypeError: jit() takes from 0 to 1 positional arguments but 3 were given
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((8,), ("x",), axis_types=(jax.sharding.AxisType.Auto,))
s = NamedSharding(mesh, P("x"))


def compile_step(fn):
    return jax.jit(fn, s, s)  # error: JX708


compile_step(lambda a: a * 2)
