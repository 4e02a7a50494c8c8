# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def check_finite(name, value):
    assert torch.isfinite(value).all(), f"{name} is not finite"  # error: TX103


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(STEPS):
        optimizer.zero_grad()
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        check_finite("loss", loss)
        loss.backward()
        optimizer.step()
        torch_xla.sync()


main()
