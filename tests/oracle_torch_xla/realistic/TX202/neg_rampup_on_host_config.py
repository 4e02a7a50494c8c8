# oracle: compiles-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def batch_size_at(epoch, schedule=((0, 16), (10, 32))):
    size = schedule[0][1]
    for start, value in schedule:
        if epoch >= start:
            size = value
    return size


def main():
    device = torch_xla.device()
    model = nn.Linear(16, 4).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    data = torch.randn(256, 16)
    bs = batch_size_at(epoch=0)
    for step in range(STEPS):
        x = data[step * bs : (step + 1) * bs].to(device)
        optimizer.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


main()
