# oracle: stdout devices: 4
import logging
import os

import jax

log = logging.getLogger(__name__)


def main(num_devices):
    os.environ["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={num_devices}"
    log.info("backend devices: %s", jax.devices())
    print("devices:", jax.device_count())


if __name__ == "__main__":
    main(4)
