# oracle: executions-per-step=2 transfers-per-step=1
import logging
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
logging.basicConfig(level=logging.INFO, format="%(message)s")
logger = logging.getLogger("train")


def run(model, optimizer, device, steps):
    for step in range(steps):
        optimizer.zero_grad()
        logits = model(torch.randn(8, 16, device=device))
        loss = torch.nn.functional.cross_entropy(logits, torch.randint(0, 4, (8,), device=device))
        loss.backward()
        optimizer.step()
        logger.info(f"step={step} loss={loss:.4f}")  # error: TX101
        torch_xla.sync()


device = torch_xla.device()
net = torch.nn.Linear(16, 4).to(device)
run(net, torch.optim.SGD(net.parameters(), lr=0.1), device, STEPS)
