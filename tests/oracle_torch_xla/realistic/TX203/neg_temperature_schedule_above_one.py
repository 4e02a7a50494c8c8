# oracle: compiles=2
# Adam's first step builds its state, so step 2 compiles once more; the schedule adds nothing after.
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
    temperature = max(1.5, 4.0 - 0.5 * step)
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x) / temperature, y)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
