# oracle: raises ValueError: Resource axis: tensor of P('tensor', 'fsdp') is not found in mesh: ('data', 'fsdp').
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

MESH_AXES = ("data", "fsdp")
PARAM_RULES = {
    "embedding": P("fsdp", None),
    "mlp_in": P(None, "fsdp"),
    "mlp_out": P("tensor", "fsdp"),
}


def shard_params(params, mesh, rules):
    out = {}
    for name, value in params.items():
        sharding = NamedSharding(mesh, rules[name])  # error: JX501
        out[name] = jax.device_put(value, sharding)
    return out


mesh = jax.make_mesh((2, 4), MESH_AXES)
params = {"embedding": jnp.ones((64, 32)), "mlp_in": jnp.ones((32, 128)), "mlp_out": jnp.ones((128, 32))}
params = shard_params(params, mesh, PARAM_RULES)
print({k: v.sharding.spec for k, v in params.items()})
