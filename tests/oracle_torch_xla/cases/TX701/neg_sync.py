# oracle: executions-per-step=1
import os
import warnings

import torch
import torch_xla

warnings.simplefilter("error", DeprecationWarning)
STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(8, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    optimizer.zero_grad()
    model(torch.randn(4, 8, device=device)).sum().backward()
    optimizer.step()
    torch_xla.sync()
