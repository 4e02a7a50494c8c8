# oracle: stdout hidden: (16, 32)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

ACT_SPEC = P("data", None)


def constrain_activations(h):
    return jax.lax.with_sharding_constraint(h, ACT_SPEC)


@jax.jit
def mlp(w1, w2, x):
    h = constrain_activations(jax.nn.gelu(x @ w1))
    return h @ w2


mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
with jax.set_mesh(mesh):
    hidden = mlp(jnp.ones((8, 64)), jnp.ones((64, 32)), jnp.ones((16, 8)))
print("hidden:", hidden.shape)
