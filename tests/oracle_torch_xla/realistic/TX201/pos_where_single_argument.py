# oracle: fallback=aten::nonzero transfers-per-step>=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, optimizer, batches, device):
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        pred = model(x).squeeze(-1)
        (positive_rows,) = torch.where(y > 0)  # error: TX201
        loss = (pred[positive_rows] - y[positive_rows]).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = torch.nn.Linear(16, 1).to(device)
train(
    model,
    torch.optim.SGD(model.parameters(), lr=0.1),
    [(torch.randn(16, 16), torch.randn(16)) for _ in range(STEPS)],
    device,
)
