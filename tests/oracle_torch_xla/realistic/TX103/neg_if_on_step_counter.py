# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, loader, optimizer, device, accumulate_every=1):
    for step, (x, y) in enumerate(loader):
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
        loss.backward()
        if (step + 1) % accumulate_every == 0:
            optimizer.step()
            optimizer.zero_grad()
        torch_xla.sync()


device = torch_xla.device()
model = nn.Linear(16, 4).to(device)
train(model, [(torch.randn(8, 16), torch.randn(8, 4))] * STEPS, torch.optim.SGD(model.parameters(), lr=0.1), device)
