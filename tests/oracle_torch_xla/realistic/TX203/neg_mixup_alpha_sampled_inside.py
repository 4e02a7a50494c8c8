# oracle: compiles=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def mixup(x, y, alpha):
    mixed_x = alpha * x + (1 - alpha) * x.flip(0)
    return mixed_x, y


def main():
    device = torch_xla.device()
    model = nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(STEPS):
        x, y = torch.randn(8, 16, device=device), torch.randn(8, 4, device=device)
        alpha = 0.6 + 0.05 * step
        x, y = mixup(x, y, alpha)
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()


main()
