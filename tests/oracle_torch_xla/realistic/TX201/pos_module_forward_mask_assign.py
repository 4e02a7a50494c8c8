# oracle: fallback=aten::nonzero transfers-per-step>=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class ClippedFeatures(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.linear = nn.Linear(d_in, d_out)

    def forward(self, x):
        h = self.linear(x)
        h[h < 0] = 0  # error: TX201
        return h


device = torch_xla.device()
model = ClippedFeatures(16, 8).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    optimizer.zero_grad()
    loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
