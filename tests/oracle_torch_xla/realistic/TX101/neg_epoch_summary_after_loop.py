# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train_one_epoch(model, optimizer, batches, device):
    total = torch.zeros((), device=device)
    for x, y in batches:
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        total += loss.detach()
        torch_xla.sync()
    return total.item() / len(batches)


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
print("epoch loss", train_one_epoch(model, optimizer, [(torch.randn(8, 16), torch.randn(8, 4))] * STEPS, device))
