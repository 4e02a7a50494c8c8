# oracle: compiles-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, optimizer, device, steps, chunk=16):
    for step in range(steps):
        signal = torch.randn(1, 4, 64, device=device)
        optimizer.zero_grad()
        loss = 0.0
        for piece in signal.split(chunk, dim=2):
            loss = loss + model(piece).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = torch.nn.Conv1d(4, 4, kernel_size=3, padding=1).to(device)
train(model, torch.optim.SGD(model.parameters(), lr=0.1), device, STEPS)
