# oracle: compiles=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, optimizer, device, steps, aux_weight=1.0):
    for step in range(steps):
        x = torch.randn(8, 16, device=device)
        out = model(x)
        loss = out.pow(2).mean() + aux_weight * out.abs().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
train(model, torch.optim.SGD(model.parameters(), lr=0.1), device, STEPS)
