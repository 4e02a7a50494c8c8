# oracle: raises AssertionError:
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P


def ring_perm(n):
    return [(i, (i + 1) % n) for i in range(n)]


def ring_allreduce(block):
    n = jax.device_count()
    total = block
    passed = block
    for _ in range(n - 1):
        passed = jax.lax.ppermute(passed, "ring", ring_perm(n))  # error: JX501
        total = total + passed
    return total


mesh = jax.make_mesh((jax.device_count(),), ("devices",), axis_types=(AxisType.Auto,))
reduce = jax.shard_map(ring_allreduce, mesh=mesh, in_specs=P("devices"), out_specs=P("devices"))
print(reduce(jnp.arange(16.0))[:2])
