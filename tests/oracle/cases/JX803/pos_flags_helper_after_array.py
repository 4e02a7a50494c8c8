# oracle: stdout devices: 8
import os

import jax
import jax.numpy as jnp

WARMUP = jnp.ones(8)


def simulate_devices(count):
    os.environ["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={count}"  # error: JX803


simulate_devices(4)
mesh = jax.make_mesh((jax.device_count(),), ("data",))
print("devices:", mesh.devices.size)
