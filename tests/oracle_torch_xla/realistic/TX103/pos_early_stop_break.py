# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
TARGET_LOSS = 1e-6


def fit(model, optimizer, device, max_steps):
    for step in range(max_steps):
        optimizer.zero_grad()
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        optimizer.step()
        if loss < TARGET_LOSS:  # error: TX103
            break
        torch_xla.sync()


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
fit(model, torch.optim.SGD(model.parameters(), lr=0.01), device, STEPS)
