# oracle: graph-growth-per-step>0 executions-per-step=0
import os

import torch
import torch_xla
from torch.optim.lr_scheduler import StepLR

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def main():
    device = torch_xla.device()
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = StepLR(optimizer, step_size=2, gamma=0.5)
    for step in range(STEPS):  # error: TX102
        optimizer.zero_grad()
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        optimizer.step()
        scheduler.step()
    return model


if __name__ == "__main__":
    trained = main()
