# oracle: stdout devices: 8
import os

import jax


def configure_logging():
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    os.environ.setdefault("WANDB_MODE", "offline")


print("devices:", jax.device_count())
configure_logging()
