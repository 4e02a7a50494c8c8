# oracle: devices=8 raises=AssertionError
# oracle-message: Each device mesh dimension should appear at most once in partition_spec (1, 1).
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)


xr.use_spmd()
n = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(n), (n // 4, 4), ("data", "model"))
attn = Attention().to(torch_xla.device())
xs.mark_sharding(attn.qkv.weight, mesh, ("model", None))
xs.mark_sharding(attn.proj.weight, mesh, ("model", "model"))  # error: TX304
