# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
import torch.nn.functional as F

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
NUM_CLASSES = 4


def soft_target_loss(logits, labels, smoothing=0.1):
    targets = F.one_hot(labels, num_classes=NUM_CLASSES).float()
    targets = targets * (1 - smoothing) + smoothing / NUM_CLASSES
    return -(targets * logits.log_softmax(-1)).sum(-1).mean()


device = torch_xla.device()
model = torch.nn.Linear(16, NUM_CLASSES).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    labels = torch.randint(0, NUM_CLASSES, (16,)).to(device)
    optimizer.zero_grad()
    loss = soft_target_loss(model(torch.randn(16, 16, device=device)), labels)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
