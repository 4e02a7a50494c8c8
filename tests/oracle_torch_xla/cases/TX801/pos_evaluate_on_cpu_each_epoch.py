# oracle: optimizer-steps-per-step=1 idle-optimizer-steps-per-step=1
import os

import torch
import torch_xla
from torch import nn

EPOCHS = int(os.environ["XLALENS_ORACLE_STEPS"])


def evaluate(model, data, target):
    with torch.no_grad():
        return nn.functional.mse_loss(model(data), target)


def main():
    device = torch_xla.device()
    model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 1)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = torch.randn(32, 12, device=device), torch.randn(32, 1, device=device)
    x_val, y_val = torch.randn(16, 12), torch.randn(16, 1)
    history = []
    for epoch in range(EPOCHS):
        optimizer.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        torch_xla.sync()
        # Validation on the host, then back to the device for the next epoch.
        model.to("cpu")
        history.append(evaluate(model, x_val, y_val))
        model.to(device)  # error: TX801
    print("validation losses", [round(loss.item(), 4) for loss in history])


main()
