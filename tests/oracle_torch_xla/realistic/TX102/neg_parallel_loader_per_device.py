# oracle: graph-growth-per-step=0 executions-per-step=1
import os

import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, TensorDataset

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train_loop(model, optimizer, loader, device):
    para_loader = pl.ParallelLoader(loader, [device])
    for x, y in para_loader.per_device_loader(device):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
dataset = TensorDataset(torch.randn(8 * STEPS, 16), torch.randn(8 * STEPS, 4))
train_loop(model, torch.optim.SGD(model.parameters(), lr=0.1), DataLoader(dataset, batch_size=8), device)
