# oracle: raises DuplicateSpecError: A single NamedSharding spec specification can map every mesh axis to at most one positional dimension, but P('data', 'data') has duplicate entries for `data`
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((8,), ("data",))
spec = P("data", "data")
sharding = NamedSharding(mesh, spec)  # error: JX502
