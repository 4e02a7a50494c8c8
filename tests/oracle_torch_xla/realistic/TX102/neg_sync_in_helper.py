# oracle: graph-growth-per-step=0 executions-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def end_of_step(step, log_every=100):
    torch_xla.sync()
    if step % log_every == 0:
        print("finished step", step)


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(STEPS):
        optimizer.zero_grad()
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        optimizer.step()
        end_of_step(step)


main()
