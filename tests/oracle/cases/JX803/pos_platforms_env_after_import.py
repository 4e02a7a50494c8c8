# oracle: stdout platform: cpu
import os
from dataclasses import dataclass

import jax


@dataclass
class RuntimeConfig:
    platform: str = "tpu"


def apply(cfg):
    os.environ["JAX_PLATFORMS"] = cfg.platform  # error: JX803


apply(RuntimeConfig())
print("platform:", jax.default_backend())
