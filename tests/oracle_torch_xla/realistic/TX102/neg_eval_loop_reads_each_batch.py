# oracle: graph-growth-per-step=0 executions-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


@torch.no_grad()
def evaluate(model, batches, device):
    model.eval()
    correct = 0
    for x, y in batches:
        logits = model(x.to(device))
        correct += (logits.argmax(-1) == y.to(device)).sum().item()
    return correct


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
evaluate(model, [(torch.randn(8, 16), torch.randint(0, 4, (8,)))] * STEPS, device)
