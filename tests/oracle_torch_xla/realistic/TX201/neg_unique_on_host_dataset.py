# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
labels_all = torch.randint(0, 3, (64,))
classes = torch.unique(labels_all)
num_classes = int(classes.numel())

device = torch_xla.device()
model = nn.Linear(16, num_classes).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    x = torch.randn(16, 16).to(device)
    y = labels_all[step * 8 : step * 8 + 16].to(device)
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
