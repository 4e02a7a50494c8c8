# oracle: compiles>=2
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
BASE_LR = 0.1
WARMUP = 100


def set_lr(optimizer, step):
    lr = BASE_LR * step / WARMUP
    for group in optimizer.param_groups:
        group["lr"] = lr  # error: TX203


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=BASE_LR)
    for step in range(STEPS):
        set_lr(optimizer, step)
        optimizer.zero_grad()
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


main()
