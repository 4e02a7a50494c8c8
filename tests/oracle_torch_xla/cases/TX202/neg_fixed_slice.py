# oracle: compiles-per-step=0 executions-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(64, 16, device=device)
torch_xla.sync()
for step in range(STEPS):
    optimizer.zero_grad()
    loss = model(data[:8]).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
