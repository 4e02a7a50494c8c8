# oracle: compiles-per-step>=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, optimizer, device, steps, window=16):
    observations = torch.randn(64, 8, device=device)
    torch_xla.sync()
    for step in range(1, steps + 1):
        recent = observations[-min(step, window) :]  # error: TX202
        optimizer.zero_grad()
        loss = model(recent).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = torch.nn.Linear(8, 2).to(device)
train(model, torch.optim.SGD(model.parameters(), lr=0.1), device, STEPS)
