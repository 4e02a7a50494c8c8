# oracle: stdout (16, 32)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

EVAL_BATCH = 16
mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
replicated = NamedSharding(mesh, P())
by_example = NamedSharding(mesh, P("data", None))


def encode(params, images):
    h = images.reshape(images.shape[0], -1) @ params["proj"]
    return h / jnp.linalg.norm(h, axis=-1, keepdims=True)


encode = jax.jit(encode, in_shardings=(replicated, replicated), out_shardings=by_example)
params = {"proj": jnp.ones((3 * 8 * 8, 32))}
images = jnp.ones((EVAL_BATCH, 3, 8, 8))
embeddings = encode(params, images)
print(embeddings.shape)
