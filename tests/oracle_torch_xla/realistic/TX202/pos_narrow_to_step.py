# oracle: compiles-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def main():
    device = torch_xla.device()
    model = torch.nn.Conv1d(4, 4, kernel_size=3, padding=1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    signal = torch.randn(1, 4, 128, device=device)
    torch_xla.sync()
    for step in range(STEPS):
        chunk = signal.narrow(2, 0, 16 * (step + 1))  # error: TX202
        optimizer.zero_grad()
        loss = model(chunk).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


main()
