# oracle: stdout padded vocab: 50304
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


def padded_vocab(cfg, multiple=128):
    return -(-cfg.vocab_size // multiple) * multiple


def init_embedding(cfg, mesh):
    table = jnp.zeros((padded_vocab(cfg), cfg.d_model), jnp.float32)
    return jax.device_put(table, NamedSharding(mesh, P("model", None)))


cfg = GPTConfig()
mesh = jax.make_mesh(cfg.mesh_shape, cfg.mesh_axes)
wte = init_embedding(cfg, mesh)
print("padded vocab:", wte.shape[0])
