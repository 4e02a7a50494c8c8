# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = nn.Linear(20, 3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
positives = []
for step in range(STEPS):
    features = torch.randn(12, 20)
    labels = torch.randint(0, 3, (12,))
    positives.append(labels.eq(1).sum().item())
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(features.to(device)), labels.to(device))
    loss.backward()
    optimizer.step()
    torch_xla.sync()
