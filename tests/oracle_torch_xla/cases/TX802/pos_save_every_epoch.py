# oracle: cpu-load=NotImplementedError transfers-per-step=4
# oracle-output: NotImplementedError: Could not run 'aten::empty.memory_format' with arguments from the 'XLA' backend
import os

import torch
import torch_xla
from torch import nn

EPOCHS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, optimizer, batches, device):
    for epoch in range(EPOCHS):
        for x, y in batches:
            optimizer.zero_grad()
            nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
            torch_xla.sync()
        # two Linear layers: four tensors, each copied to the host on its own
        torch.save(model.state_dict(), f"epoch_{epoch}.pt")  # error: TX802


device = torch_xla.device()
model = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
batches = [(torch.randn(4, 8, device=device), torch.randn(4, 1, device=device)) for _ in range(2)]
train(model, optimizer, batches, device)
