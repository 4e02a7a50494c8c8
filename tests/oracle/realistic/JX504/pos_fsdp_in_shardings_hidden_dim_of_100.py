# oracle: raises IndivisibleError: Sharding NamedSharding(mesh=Mesh('fsdp': 8, axis_types=(Auto,)), spec=P('fsdp', None)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

MODEL = {"d_model": 64, "d_hidden": 100}


def fsdp_rules(params):
    return {name: P("fsdp", None) for name in params}


def ffn(params, x):
    return jax.nn.relu(x @ params["w_in"].T) @ params["w_out"]


mesh = jax.make_mesh((8,), ("fsdp",), axis_types=(AxisType.Auto,))
params = {
    "w_in": jnp.ones((MODEL["d_hidden"], MODEL["d_model"])),
    "w_out": jnp.ones((MODEL["d_hidden"], MODEL["d_model"])),
}
shardings = {k: NamedSharding(mesh, spec) for k, spec in fsdp_rules(params).items()}
ffn = jax.jit(ffn, in_shardings=(shardings, NamedSharding(mesh, P())))
print(ffn(params, jnp.ones((4, MODEL["d_model"]))).shape)  # error: JX504
