# oracle: devices=8
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

    def forward(self, x):
        return self.conv2(torch.relu(self.conv1(x)))


xr.use_spmd()
mesh = xs.get_1d_mesh("model")
net = ConvNet().to(torch_xla.device())
xs.mark_sharding(net.conv2.weight, mesh, ("model", None, None, None))
images = torch.randn(8, 3, 16, 16).to(torch_xla.device())
xs.mark_sharding(images, mesh, ("model", None, None, None))
