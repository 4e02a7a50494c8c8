# oracle: graph-growth-per-step>0 executions-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, loader, optimizer, loss_fn):
    device = torch_xla.device()
    model = model.to(device)
    for step, (x, y) in enumerate(loader):  # error: TX102
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()


model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(torch_xla.device())
batches = [(torch.randn(8, 16), torch.randn(8, 4)) for _ in range(STEPS)]
train(model, batches, torch.optim.SGD(model.parameters(), lr=0.01), nn.MSELoss())
