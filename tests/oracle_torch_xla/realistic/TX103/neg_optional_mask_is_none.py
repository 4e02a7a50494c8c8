# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class MaskedRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 1)

    def forward(self, x, mask=None):
        out = self.proj(x).squeeze(-1)
        if mask is not None:
            out = out * mask
        return out


device = torch_xla.device()
model = MaskedRegressor().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    batch = {"x": torch.randn(8, 16), "mask": torch.ones(8), "y": torch.randn(8)}
    batch = {k: v.to(device) for k, v in batch.items()}
    optimizer.zero_grad()
    pred = model(batch["x"], batch.get("mask"))
    loss = nn.functional.mse_loss(pred, batch["y"])
    loss.backward()
    optimizer.step()
    torch_xla.sync()
