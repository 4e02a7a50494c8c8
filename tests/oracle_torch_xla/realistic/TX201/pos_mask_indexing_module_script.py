# oracle: fallback=aten::nonzero transfers-per-step>=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
batches = [(torch.randn(16, 10), torch.rand(16)) for _ in range(STEPS)]

model = nn.Linear(10, 1).to(device)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for inputs, weights in batches:
    inputs, weights = inputs.to(device), weights.to(device)
    optimizer.zero_grad()
    preds = model(inputs).squeeze(-1)
    keep = weights > 0.5
    loss = criterion(preds[keep], weights[keep])  # error: TX201
    loss.backward()
    optimizer.step()
    torch_xla.sync()
