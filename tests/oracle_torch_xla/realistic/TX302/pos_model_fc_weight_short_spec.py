# oracle: devices=8 raises=AssertionError
# oracle-message: Partition spec length (1) should be equal to the input rank (2).
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(32, 64)
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc(torch.relu(self.backbone(x)))


def shard_model(model, mesh):
    xs.mark_sharding(model.backbone.weight, mesh, ("model", None))
    xs.mark_sharding(model.fc.weight, mesh, ("model",))  # error: TX302


xr.use_spmd()
n = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(n), (2, n // 2), ("data", "model"))
model = Classifier().to(torch_xla.device())
shard_model(model, mesh)
