# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
batches = [(torch.randn(16, 10), torch.rand(16)) for _ in range(STEPS)]

model = nn.Linear(10, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for inputs, weights in batches:
    inputs, weights = inputs.to(device), weights.to(device)
    optimizer.zero_grad()
    preds = model(inputs).squeeze(-1)
    keep = (weights > 0.5).float()
    loss = ((preds - weights).pow(2) * keep).sum() / keep.sum().clamp(min=1.0)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
