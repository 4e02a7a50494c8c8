# oracle: executions-per-step=1 transfers-per-step=0
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-3)
        self.running_loss = torch.zeros((), device=self.device)

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = nn.functional.cross_entropy(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        self.running_loss += loss.detach()
        return loss

    def fit(self, batches):
        for x, y in batches:
            self.train_step(x.to(self.device), y.to(self.device))
            torch_xla.sync()


trainer = Trainer(nn.Linear(32, 10))
trainer.fit([(torch.randn(16, 32), torch.randint(0, 10, (16,))) for _ in range(STEPS)])
