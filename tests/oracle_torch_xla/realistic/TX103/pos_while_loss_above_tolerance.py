# oracle: executions-per-step>=2 transfers-per-step>=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def inner_refine(model, optimizer, x, tol=1e-9, max_inner=1):
    loss = model(x).pow(2).mean()
    inner = 0
    while loss > tol and inner < max_inner:  # error: TX103
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        loss = model(x).pow(2).mean()
        inner += 1
    return loss


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(STEPS):
    inner_refine(model, optimizer, torch.randn(8, 16, device=device))
