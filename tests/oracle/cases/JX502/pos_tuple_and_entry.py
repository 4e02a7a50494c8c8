# oracle: raises DuplicateSpecError: A single NamedSharding spec specification can map every mesh axis to at most one positional dimension, but P(('x', 'y'), 'y') has duplicate entries for `y`
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
sharding = NamedSharding(mesh, P(("x", "y"), "y"))  # error: JX502
