# oracle: stdout (8, 16, 64)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

RULES = (("embed", P("model", None)), ("norm_scale", P("model")))


def spec_for(name):
    for suffix, spec in RULES:
        if name.endswith(suffix):
            return spec
    return P()


def embed_and_norm(params, ids):
    h = params["tok_embed"][ids]
    return h * jax.lax.rsqrt(jnp.mean(h * h, axis=-1, keepdims=True) + 1e-6) * params["final_norm_scale"]


mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
params = {"tok_embed": jnp.ones((512, 64)), "final_norm_scale": jnp.ones(64)}
param_shardings = {name: NamedSharding(mesh, spec_for(name)) for name in params}
fwd = jax.jit(embed_and_norm, in_shardings=(param_shardings, NamedSharding(mesh, P("data"))))
print(fwd(params, jnp.zeros((8, 16), jnp.int32)).shape)
