# oracle: graph-growth-per-step>0 executions-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
batches = iter([torch.randn(8, 16) for _ in range(STEPS)])
step = 0
while step < STEPS:  # error: TX102
    x = next(batches).to(device)
    optimizer.zero_grad()
    loss = model(x).abs().mean()
    loss.backward()
    optimizer.step()
    step += 1
