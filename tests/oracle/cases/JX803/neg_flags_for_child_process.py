# oracle: stdout child devices: 4
import os
import subprocess
import sys

import jax

print("parent devices:", jax.device_count())
env = os.environ.copy()
env["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
child = subprocess.run(
    [sys.executable, "-c", "import jax; print(jax.device_count())"],
    env=env,
    capture_output=True,
    text=True,
    check=True,
)
print("child devices:", child.stdout.strip())
