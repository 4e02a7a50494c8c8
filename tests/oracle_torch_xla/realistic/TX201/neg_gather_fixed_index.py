# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def train(model, optimizer, batches, device):
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        logits = model(x)
        picked = logits.gather(1, y[:, None]).squeeze(1)
        topk_values, topk_index = logits.topk(2, dim=-1)
        loss = -picked.mean() + topk_values.mean() + logits[torch.arange(x.shape[0], device=device), y].mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
train(
    model,
    torch.optim.SGD(model.parameters(), lr=0.1),
    [(torch.randn(8, 16), torch.randint(0, 4, (8,)))] * STEPS,
    device,
)
