# oracle: executions-per-step=1 transfers-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def fit(model, optimizer, device, max_steps, target=1e-6):
    for step in range(max_steps):
        optimizer.zero_grad()
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        loss_value = loss.item()
        if loss_value < target:
            break


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
fit(model, torch.optim.SGD(model.parameters(), lr=0.01), device, STEPS)
