# oracle: runs
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

BATCH_AXIS = "batch"


def local_loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def train_step(w, x, y):
    loss, grads = jax.value_and_grad(local_loss)(w, x, y)
    grads = jax.lax.pmean(grads, BATCH_AXIS)
    return w - 0.05 * grads, jax.lax.pmean(loss, BATCH_AXIS)


mesh = jax.make_mesh((jax.device_count(),), (BATCH_AXIS,), axis_types=(AxisType.Auto,))
step = jax.jit(
    jax.shard_map(train_step, mesh=mesh, in_specs=(P(), P(BATCH_AXIS), P(BATCH_AXIS)), out_specs=(P(), P()))
)
w = jnp.zeros(4)
for _ in range(2):
    w, loss = step(w, jnp.ones((16, 4)), jnp.ones(16))
print(float(loss))
