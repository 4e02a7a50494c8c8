# oracle: executions-per-step>=1 transfers-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, optimizer, device, steps, patience=3):
    previous = None
    bad_steps = 0
    for step in range(steps):
        optimizer.zero_grad()
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        if previous is not None and loss > previous:  # error: TX103
            bad_steps += 1
        previous = loss.detach()


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
train(model, torch.optim.SGD(model.parameters(), lr=0.01), device, STEPS)
