"""A data-parallel step on 8 devices with the sharding mistakes xlalens finds before a slice is allocated."""

from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))

weights = jax.device_put(jnp.zeros((512, 1000)), NamedSharding(mesh, P(None, "model")))
batch = jax.device_put(jnp.ones((30, 512)), NamedSharding(mesh, P("data")))
labels = jax.device_put(jnp.ones((32,)), NamedSharding(mesh, P("batch")))


@partial(jax.shard_map, mesh=mesh, in_specs=(P("data"), P(None, "model")), out_specs=P())
def local_loss(x, w):
    logits = x @ w
    return jnp.mean(logits**2)


print(local_loss(batch, weights))
