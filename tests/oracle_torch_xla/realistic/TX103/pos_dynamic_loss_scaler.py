# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class LossScaler:
    def __init__(self, init_scale=2.0**10):
        self.scale = init_scale

    def update(self, grad_norm):
        if not torch.isfinite(grad_norm):  # error: TX103
            self.scale /= 2


def main():
    device = torch_xla.device()
    model = nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = LossScaler()
    for step in range(STEPS):
        optimizer.zero_grad()
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        grad_norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.update(grad_norm)
        optimizer.step()
        torch_xla.sync()


main()
