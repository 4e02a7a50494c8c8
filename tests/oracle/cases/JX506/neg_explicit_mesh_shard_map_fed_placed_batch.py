# oracle: stdout (16, 2)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def local_logits(w, x):
    return jnp.tanh(x @ w)


def evaluate():
    mesh = jax.make_mesh((4,), ("data",))
    logits = jax.shard_map(local_logits, mesh=mesh, in_specs=(P(), P("data", None)), out_specs=P("data", None))
    weights = jnp.ones((8, 2))
    inputs = jax.device_put(jnp.ones((16, 8)), NamedSharding(mesh, P("data", None)))
    return logits(weights, inputs)


print(evaluate().shape)
