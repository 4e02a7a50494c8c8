# oracle: stdout spec=P('data',)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

RUN_CONFIG = {
    "mesh": {"shape": (2, 4), "axes": ("data", "model")},
    "batch_size": 64,
}


def setup(run_config):
    mesh_cfg = run_config["mesh"]
    mesh = jax.make_mesh(mesh_cfg["shape"], mesh_cfg["axes"])
    return mesh, NamedSharding(mesh, P("data"))


mesh, batch_sharding = setup(RUN_CONFIG)
batch = jax.device_put(jnp.ones((RUN_CONFIG["batch_size"], 16)), batch_sharding)
print(batch.sharding)
