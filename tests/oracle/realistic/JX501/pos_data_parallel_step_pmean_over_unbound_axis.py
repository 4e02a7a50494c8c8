# oracle: raises AssertionError:
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

DP_AXIS = "dp"
GRAD_SYNC_AXIS = "data"


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def dp_step(w, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(w, x, y)
    grads = jax.lax.pmean(grads, GRAD_SYNC_AXIS)  # error: JX501
    return w - 0.1 * grads, jax.lax.pmean(loss, DP_AXIS)


mesh = jax.make_mesh((8,), (DP_AXIS,), axis_types=(AxisType.Auto,))
step = jax.jit(
    jax.shard_map(dp_step, mesh=mesh, in_specs=(P(), P(DP_AXIS), P(DP_AXIS)), out_specs=(P(), P()))
)
w, loss = step(jnp.zeros(4), jnp.ones((32, 4)), jnp.ones(32))
print("loss:", loss)
