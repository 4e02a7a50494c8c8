# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def fit(model, optimizer, data, device):
    grad_norms = []
    for inputs, targets in data:
        optimizer.zero_grad()
        out = model(inputs.to(device))
        loss = torch.nn.functional.smooth_l1_loss(out, targets.to(device))
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        grad_norms.append(norm.item())  # error: TX101
        optimizer.step()
        torch_xla.sync()
    return grad_norms


device = torch_xla.device()
model = torch.nn.Linear(12, 3).to(device)
fit(model, torch.optim.SGD(model.parameters(), lr=0.01), [(torch.randn(6, 12), torch.randn(6, 3))] * STEPS, device)
