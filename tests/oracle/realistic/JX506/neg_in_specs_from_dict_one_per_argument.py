# oracle: stdout loss: 9.0
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

SPECS = {"params": P(), "inputs": P("data", None), "labels": P("data"), "loss": P()}


def local_loss(w, x, y):
    return jax.lax.pmean(jnp.mean((x @ w - y) ** 2), "data")


mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
loss_fn = jax.shard_map(
    local_loss,
    mesh=mesh,
    in_specs=(SPECS["params"], SPECS["inputs"], SPECS["labels"]),
    out_specs=SPECS["loss"],
)
loss = loss_fn(jnp.ones(4), jnp.ones((16, 4)), jnp.ones(16))
print("loss:", loss)
