# oracle: stdout acc: 1.0
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

MESH_CFG = {"shape": (4, 2), "axes": ("data", "model")}


def accuracy(logits, labels):
    correct = jnp.argmax(logits, axis=-1) == labels
    return jax.lax.pmean(jnp.mean(correct.astype(jnp.float32)), "data")


def build_eval(mesh):
    specs = (P("data", None), P("data"))
    return jax.shard_map(accuracy, mesh=mesh, in_specs=specs, out_specs=P())


mesh = jax.make_mesh(MESH_CFG["shape"], MESH_CFG["axes"], axis_types=(AxisType.Auto,) * 2)
evaluate = build_eval(mesh)
print("acc:", evaluate(jnp.ones((16, 10)), jnp.zeros(16, jnp.int32)))
