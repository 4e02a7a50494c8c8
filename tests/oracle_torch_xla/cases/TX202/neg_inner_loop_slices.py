# oracle: compiles-per-step=0
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
    loss = out.sum() * 0.0 + sum(out[:, t].pow(2).mean() for t in range(4))
    loss.backward()
    optimizer.step()
    torch_xla.sync()
