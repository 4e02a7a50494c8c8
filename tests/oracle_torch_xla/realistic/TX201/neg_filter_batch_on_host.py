# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
torch.manual_seed(0)
device = torch_xla.device()
model = nn.Linear(10, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(STEPS):
    inputs, weights = torch.randn(16, 10), torch.rand(16)
    keep = weights > 0.5
    inputs_kept, weights_kept = inputs[keep][:4], weights[keep][:4]
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(inputs_kept.to(device)).squeeze(-1), weights_kept.to(device))
    loss.backward()
    optimizer.step()
    torch_xla.sync()
