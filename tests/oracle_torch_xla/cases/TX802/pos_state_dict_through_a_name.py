# oracle: cpu-load=NotImplementedError
# oracle-output: NotImplementedError: Could not run 'aten::empty.memory_format' with arguments from the 'XLA' backend
import os

import torch
import torch_xla
from torch import nn


def save(model, optimizer, epoch, path):
    state = {"epoch": epoch, "model": model.state_dict(), "optimizer": optimizer.state_dict()}
    torch.save(state, path)  # error: TX802


def main():
    device = torch_xla.device()
    model = nn.Linear(12, 3).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.randn(6, 12, device=device)
    for epoch in range(int(os.environ["XLALENS_ORACLE_STEPS"])):
        optimizer.zero_grad()
        model(data).pow(2).mean().backward()
        optimizer.step()
        torch_xla.sync()
    save(model, optimizer, epoch, "last.pt")


main()
