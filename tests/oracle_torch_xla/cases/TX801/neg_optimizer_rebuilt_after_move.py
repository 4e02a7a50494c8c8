# oracle: optimizer-steps-per-step=1 idle-optimizer-steps-per-step=0
import os

import torch
import torch_xla
from torch import nn


def previous_run():
    model = nn.Linear(10, 2)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    model(torch.randn(4, 10)).sum().backward()
    optimizer.step()
    return {"model": model.state_dict(), "optimizer": optimizer.state_dict()}


def resume(checkpoint, device):
    model = nn.Linear(10, 2)
    model.load_state_dict(checkpoint["model"])
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    model.to(device)
    # A fresh optimizer over the parameters the move made; the saved state maps onto them by position.
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    optimizer.load_state_dict(checkpoint["optimizer"])
    return model, optimizer


device = torch_xla.device()
model, optimizer = resume(previous_run(), device)
batch = torch.randn(8, 10, device=device)
for step in range(int(os.environ["XLALENS_ORACLE_STEPS"])):
    optimizer.zero_grad()
    model(batch).pow(2).mean().backward()
    optimizer.step()
    torch_xla.sync()
