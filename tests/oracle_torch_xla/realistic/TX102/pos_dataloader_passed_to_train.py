# oracle: graph-growth-per-step>0 executions-per-step=0
import os

import torch
import torch_xla
from torch.utils.data import DataLoader, TensorDataset

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, loader, optimizer, device):
    model.train()
    for batch_idx, (data, target) in enumerate(loader):  # error: TX102
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = torch.nn.functional.nll_loss(output.log_softmax(dim=-1), target)
        loss.backward()
        optimizer.step()


def main():
    device = torch_xla.device()
    dataset = TensorDataset(torch.randn(8 * STEPS, 28), torch.randint(0, 10, (8 * STEPS,)))
    loader = DataLoader(dataset, batch_size=8, shuffle=True, drop_last=True)
    model = torch.nn.Linear(28, 10).to(device)
    optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
    train(model, loader, optimizer, device)
    return model


trained = main()
