# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def accuracy(logits, labels):
    return (logits.argmax(dim=-1) == labels).float().mean().item()  # error: TX101


class Classifier(nn.Module):
    def __init__(self, num_features, num_classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(num_features, 64), nn.ReLU())
        self.head = nn.Linear(64, num_classes)

    def forward(self, x):
        return self.head(self.body(x))


device = torch_xla.device()
model = Classifier(32, 10).to(device)
optimizer = torch.optim.Adam(model.parameters())
accs = []
for step in range(STEPS):
    x = torch.randn(16, 32).to(device)
    y = torch.randint(0, 10, (16,)).to(device)
    optimizer.zero_grad()
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    accs.append(accuracy(logits, y))
    torch_xla.sync()
