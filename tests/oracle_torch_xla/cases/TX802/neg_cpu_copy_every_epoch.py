# oracle: cpu-load=ok transfers-per-step=4
import os

import torch
import torch_xla
from torch import nn

EPOCHS = int(os.environ["XLALENS_ORACLE_STEPS"])


def cpu_state(model):
    return {name: tensor.cpu() for name, tensor in model.state_dict().items()}


def train(model, optimizer, batches, device):
    for epoch in range(EPOCHS):
        for x, y in batches:
            optimizer.zero_grad()
            nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
            torch_xla.sync()
        torch.save(cpu_state(model), f"epoch_{epoch}.pt")


device = torch_xla.device()
model = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
batches = [(torch.randn(4, 8, device=device), torch.randn(4, 1, device=device)) for _ in range(2)]
train(model, optimizer, batches, device)
