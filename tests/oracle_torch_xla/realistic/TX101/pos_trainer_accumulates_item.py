# oracle: executions-per-step=2 transfers-per-step=1
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model, lr):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)
        self.loss_fn = nn.CrossEntropyLoss()
        self.running_loss = 0.0

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.loss_fn(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        self.running_loss += loss.item()  # error: TX101
        return loss

    def fit(self, batches):
        for x, y in batches:
            self.train_step(x.to(self.device), y.to(self.device))
            torch_xla.sync()


trainer = Trainer(nn.Linear(32, 10), lr=1e-3)
trainer.fit([(torch.randn(16, 32), torch.randint(0, 10, (16,))) for _ in range(STEPS)])
