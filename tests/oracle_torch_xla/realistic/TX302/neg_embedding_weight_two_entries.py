# oracle: devices=8
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab=1000, dim=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):
        return self.lm_head(self.embed(tokens))


xr.use_spmd()
n = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(n), (2, n // 2), ("fsdp", "tensor"))
lm = TinyLM().to(torch_xla.device())
xs.mark_sharding(lm.embed.weight, mesh, ("tensor", "fsdp"))
xs.mark_sharding(lm.lm_head.weight, mesh, ("tensor", "fsdp"))
