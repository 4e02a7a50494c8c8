# oracle: compiles=1
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
    scale = torch.tensor([1.0 if step < 1 else 0.5], device=device)
    loss = out.pow(2).mean() * scale
    loss.backward()
    optimizer.step()
    torch_xla.sync()
