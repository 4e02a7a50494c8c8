# oracle: compiles-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(8, 8).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
context = torch.zeros(1, 16, 8, device=device)
for step in range(STEPS):
    optimizer.zero_grad()
    new_token = torch.randn(1, 1, 8, device=device)
    context = torch.cat([context[:, 1:], new_token], dim=1)
    loss = model(context).pow(2).mean()
    loss.backward()
    optimizer.step()
    context = context.detach()
    torch_xla.sync()
