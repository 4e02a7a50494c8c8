# oracle: optimizer-steps-per-step=1 idle-optimizer-steps-per-step=0
import os

import torch
import torch_xla
from torch import nn


def configure_optimizers(model, steps, lr=0.05):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=steps)
    return optimizer, scheduler


def main(steps):
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 8 * 8, 10))
    device = torch_xla.device()
    model = model.to(device)
    optimizer, scheduler = configure_optimizers(model, steps)
    images = torch.randn(8, 3, 8, 8, device=device)
    labels = torch.randint(0, 10, (8,), device=device)
    for _ in range(steps):
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(images), labels)
        loss.backward()
        optimizer.step()
        scheduler.step()
        torch_xla.sync()


main(int(os.environ["XLALENS_ORACLE_STEPS"]))
