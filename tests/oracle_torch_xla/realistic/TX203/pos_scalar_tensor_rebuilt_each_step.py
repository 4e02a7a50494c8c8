# oracle: compiles=2
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, optimizer, device, steps, warmup=1):
    for step in range(steps):
        scale = torch.tensor(1.0 if step < warmup else 0.5, device=device)  # error: TX203
        optimizer.zero_grad()
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean() * scale
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
train(model, torch.optim.SGD(model.parameters(), lr=0.1), device, STEPS)
