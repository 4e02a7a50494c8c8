# oracle: compiles=1
import os

import torch
import torch_xla
from torch.optim.lr_scheduler import CosineAnnealingLR

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = CosineAnnealingLR(optimizer, T_max=1000, eta_min=1e-4)
    for step in range(STEPS):
        optimizer.zero_grad()
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        optimizer.step()
        scheduler.step()
        torch_xla.sync()


main()
