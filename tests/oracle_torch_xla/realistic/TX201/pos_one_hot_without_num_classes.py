# oracle: transfers-per-step=1 executions-per-step=2
import os

import torch
import torch_xla
import torch.nn.functional as F

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def soft_target_loss(logits, labels, smoothing=0.1):
    targets = F.one_hot(labels).float()  # error: TX201
    targets = targets * (1 - smoothing) + smoothing / targets.shape[-1]
    return -(targets * logits[:, : targets.shape[-1]].log_softmax(-1)).sum(-1).mean()


device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    labels = torch.randint(0, 4, (16,)).to(device)
    optimizer.zero_grad()
    loss = soft_target_loss(model(torch.randn(16, 16, device=device)), labels)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
