# oracle: compiles-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def batch_size_at(step, start=4, increment=4, final=64):
    return min(start + increment * step, final)


def main():
    device = torch_xla.device()
    model = nn.Linear(16, 4).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    data = torch.randn(256, 16)
    for step in range(STEPS):
        bs = batch_size_at(step)
        x = data[:bs].to(device)  # error: TX202
        optimizer.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


main()
