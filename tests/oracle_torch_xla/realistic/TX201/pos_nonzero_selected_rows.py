# oracle: fallback=aten::nonzero transfers-per-step>=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def hard_example_loss(pred, target, threshold=0.5):
    errors = (pred - target).abs().mean(dim=-1)
    hard = torch.nonzero(errors > threshold).squeeze(-1)  # error: TX201
    return (pred[hard] - target[hard]).pow(2).mean()


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    optimizer.zero_grad()
    x, y = torch.randn(32, 16, device=device), torch.randn(32, 4, device=device)
    loss = hard_example_loss(model(x), y)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
