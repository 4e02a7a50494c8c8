# oracle: raises DuplicateSpecError: A single NamedSharding spec specification can map every mesh axis to at most one positional dimension, but P(None, 'y', 'y') has duplicate entries for `y`
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
sharding = NamedSharding(mesh, P(None, "y", "y"))  # error: JX502
