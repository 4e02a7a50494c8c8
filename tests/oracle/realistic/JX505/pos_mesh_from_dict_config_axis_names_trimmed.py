# oracle: raises ValueError: Mesh requires the ndim of its first argument (`devices`) to equal the length of its second argument (`axis_names`)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

RUN_CONFIG = {
    "mesh": {"shape": (2, 4), "axes": ("data",)},
    "batch_size": 64,
}


def setup(run_config):
    mesh_cfg = run_config["mesh"]
    mesh = jax.make_mesh(mesh_cfg["shape"], mesh_cfg["axes"])  # error: JX505
    return mesh, NamedSharding(mesh, P("data"))


mesh, batch_sharding = setup(RUN_CONFIG)
batch = jax.device_put(jnp.ones((RUN_CONFIG["batch_size"], 16)), batch_sharding)
print(batch.sharding)
