# oracle: stdout (64, 4)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

BATCH_SPEC = P("data", None)


def per_device_logits(w, x):
    return x @ w


def make_forward(mesh):
    return jax.shard_map(per_device_logits, mesh=mesh, in_specs=(P(), BATCH_SPEC), out_specs=BATCH_SPEC)


mesh = jax.make_mesh((8,), ("data",))
forward = make_forward(mesh)
w = jax.device_put(jnp.ones((16, 4)), NamedSharding(mesh, P()))
batch = jax.device_put(jnp.ones((64, 16)), NamedSharding(mesh, BATCH_SPEC))
logits = forward(w, batch)
print(logits.shape)
