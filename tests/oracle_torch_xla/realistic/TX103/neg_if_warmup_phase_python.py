# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
WARMUP = 1


def main():
    device = torch_xla.device()
    encoder = torch.nn.Linear(16, 16).to(device)
    head = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD([*encoder.parameters(), *head.parameters()], lr=0.1)
    for step in range(STEPS):
        optimizer.zero_grad()
        x = torch.randn(8, 16, device=device)
        if step < WARMUP:
            with torch.no_grad():
                features = encoder(x)
        else:
            features = encoder(x)
        loss = head(features).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


main()
