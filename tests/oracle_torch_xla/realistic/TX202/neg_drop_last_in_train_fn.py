# oracle: compiles-per-step=0
import os

import torch
import torch_xla
from torch.utils.data import DataLoader, TensorDataset

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, loader, optimizer, device):
    for data, target in loader:
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(data), target)
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
dataset = TensorDataset(torch.randn(8 * STEPS + 3, 16), torch.randn(8 * STEPS + 3, 4))
model = torch.nn.Linear(16, 4).to(device)
loader = DataLoader(dataset, batch_size=8, shuffle=True, drop_last=True)
train(model, loader, torch.optim.SGD(model.parameters(), lr=0.1), device)
