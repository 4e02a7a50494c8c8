# oracle: stdout (4, 4)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=16"

import jax
import numpy as np
from jax.sharding import Mesh

devices = np.array(jax.devices()).reshape(4, 4)
print(Mesh(devices, ("data", "model")).devices.shape)
