# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
BATCH = 8


def train(model, optimizer, batches, device):
    for x, y in batches:
        if x.shape[0] < BATCH or x.dim() != 2:
            continue
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
train(
    model,
    torch.optim.SGD(model.parameters(), lr=0.1),
    [(torch.randn(BATCH, 16), torch.randn(BATCH, 4))] * STEPS,
    device,
)
