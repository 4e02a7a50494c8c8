# oracle: graph-growth-per-step>0 executions-per-step=0
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
for inputs, targets in batches:  # error: TX102
    inputs, targets = inputs.to(device), targets.to(device)
    optimizer.zero_grad()
    loss = criterion(model(inputs), targets)
    loss.backward()
    optimizer.step()
