# oracle: compiles=2
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = nn.Linear(16, 4).to(device)
optimizer = torch.optim.Adam(model.parameters())
for step in range(STEPS):
    x = torch.randn(8, 16).to(device)
    y = torch.randint(0, 4, (8,)).to(device)
    temperature = 1.0 if step == 0 else 2.0
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x) / temperature, y)  # error: TX203
    loss.backward()
    optimizer.step()
    torch_xla.sync()
