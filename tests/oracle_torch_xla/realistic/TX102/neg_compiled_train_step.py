# oracle: graph-growth-per-step=0 executions-per-step=2
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


@torch_xla.compile
def train_step(x, y):
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


for step in range(STEPS):
    train_step(torch.randn(8, 16, device=device), torch.randn(8, 4, device=device))
