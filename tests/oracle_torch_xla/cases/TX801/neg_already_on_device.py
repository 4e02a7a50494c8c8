# oracle: optimizer-steps-per-step=1 idle-optimizer-steps-per-step=0
import os

import torch
import torch_xla
from torch import nn


def fit(model, device, steps):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    model.to(device)  # already there: the move keeps every parameter object
    x = torch.randn(8, 12, device=device)
    for _ in range(steps):
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
fit(nn.Linear(12, 3).to(device), device, int(os.environ["XLALENS_ORACLE_STEPS"]))
