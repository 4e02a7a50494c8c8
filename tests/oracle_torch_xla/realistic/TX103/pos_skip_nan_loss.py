# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, loader, optimizer, device):
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        if torch.isnan(loss):  # error: TX103
            print("skipping step", step)
            continue
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = nn.Linear(16, 4).to(device)
train(model, [(torch.randn(8, 16), torch.randn(8, 4))] * STEPS, torch.optim.SGD(model.parameters(), lr=0.1), device)
