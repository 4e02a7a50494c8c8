# oracle: graph-growth-per-step>0 executions-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
ACCUM = 2


def train(model, optimizer, micro_batches, device):
    for step in range(STEPS):  # error: TX102
        optimizer.zero_grad()
        for x, y in micro_batches:
            loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)) / ACCUM
            loss.backward()
        optimizer.step()


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train(model, optimizer, [(torch.randn(4, 16), torch.randn(4, 4)) for _ in range(ACCUM)], device)
