# oracle: executions-per-step>=2 transfers-per-step>=1 fallback=aten::nonzero
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    optimizer.zero_grad()
    out = model(torch.randn(8, 16, device=device))
    rows = torch.nonzero(out > 0)  # error: TX201
    loss = out.sum() + rows.float().sum()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
