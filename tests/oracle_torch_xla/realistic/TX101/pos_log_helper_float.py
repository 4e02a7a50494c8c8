# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla
import torch.nn.functional as F

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
history = []


def log_metrics(step, loss):
    history.append({"step": step, "loss": float(loss)})  # error: TX101


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(STEPS):
        x = torch.randn(8, 16, device=device)
        target = torch.randn(8, 4, device=device)
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), target)
        loss.backward()
        log_metrics(step, loss)
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
