# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
batches = [(torch.randn(8, 10), torch.randn(8, 1)) for _ in range(STEPS)]

model = nn.Linear(10, 1).to(device)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
losses = []
for inputs, targets in batches:
    inputs, targets = inputs.to(device), targets.to(device)
    optimizer.zero_grad()
    loss = criterion(model(inputs), targets)
    loss.backward()
    losses.append(loss.detach().cpu())  # error: TX101
    optimizer.step()
    torch_xla.sync()
