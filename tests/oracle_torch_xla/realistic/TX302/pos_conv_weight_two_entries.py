# oracle: devices=8 raises=AssertionError
# oracle-message: Partition spec length (2) should be equal to the input rank (4).
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, kernel_size=3, padding=1)
        self.head = nn.Linear(32, 10)

    def forward(self, x):
        x = torch.relu(self.conv2(torch.relu(self.conv1(x))))
        return self.head(x.mean(dim=(2, 3)))


xr.use_spmd()
mesh = xs.get_1d_mesh("model")
net = ConvNet().to(torch_xla.device())
xs.mark_sharding(net.conv2.weight, mesh, ("model", None))  # error: TX302
