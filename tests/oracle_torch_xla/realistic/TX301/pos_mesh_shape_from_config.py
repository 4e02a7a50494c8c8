# oracle: devices=8 raises=AssertionError
# oracle-message: Number of device IDs (8) must match mesh size (4)
from dataclasses import dataclass

import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn


@dataclass
class ParallelConfig:
    data: int = 2
    model: int = 2


def make_mesh(cfg):
    num_devices = xr.global_runtime_device_count()
    return xs.Mesh(np.arange(num_devices), (cfg.data, cfg.model), ("data", "model"))  # error: TX301


xr.use_spmd()
mesh = make_mesh(ParallelConfig())
