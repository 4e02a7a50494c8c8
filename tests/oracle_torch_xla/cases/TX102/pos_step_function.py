# oracle: graph-growth-per-step>0 executions-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train_step(x):
    optimizer.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
    return loss


step = 0
while step < STEPS:  # error: TX102
    train_step(torch.randn(8, 16, device=device))
    step += 1
