# oracle: graph-growth-per-step=0 executions-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
import torch_xla.core.xla_model as xm

for step in range(STEPS):
    optimizer.zero_grad()
    loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
    loss.backward()
    optimizer.step()
    xm.mark_step()  # error: TX701
