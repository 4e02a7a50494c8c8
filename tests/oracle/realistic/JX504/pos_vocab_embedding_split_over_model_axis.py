# oracle: raises ValueError: Sharding spec ('model',) implies that array axis 0 is partitioned 4 times, but does not evenly divide the dimension size 50257
import dataclasses
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


@dataclasses.dataclass
class GPTConfig:
    vocab_size: int = 50257
    d_model: int = 64
    mesh_shape: tuple = (2, 4)
    mesh_axes: tuple = ("data", "model")


def init_embedding(cfg, mesh):
    table = jnp.zeros((cfg.vocab_size, cfg.d_model), jnp.float32)
    return jax.device_put(table, NamedSharding(mesh, P("model", None)))  # error: JX504


cfg = GPTConfig()
mesh = jax.make_mesh(cfg.mesh_shape, cfg.mesh_axes)
wte = init_embedding(cfg, mesh)
print(wte.sharding.spec)
