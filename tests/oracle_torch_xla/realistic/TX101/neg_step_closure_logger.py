# oracle: executions-per-step=1 transfers-per-step=1
import os

import torch
import torch_xla
import torch_xla.core.xla_model as xm

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
history = []


def log_loss(step, loss):
    history.append((step, loss.item()))


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(STEPS):
        optimizer.zero_grad()
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        optimizer.step()
        xm.add_step_closure(log_loss, args=(step, loss))
        torch_xla.sync()


main()
