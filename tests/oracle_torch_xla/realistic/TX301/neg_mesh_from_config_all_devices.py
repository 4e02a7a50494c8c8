# oracle: devices=8
from dataclasses import dataclass

import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn


@dataclass
class ParallelConfig:
    model: int = 2


def make_mesh(cfg):
    num_devices = xr.global_runtime_device_count()
    return xs.Mesh(np.arange(num_devices), (num_devices // cfg.model, cfg.model), ("data", "model"))


xr.use_spmd()
mesh = make_mesh(ParallelConfig())
