# oracle: optimizer-steps-per-step=1 idle-optimizer-steps-per-step=1
import os

import torch
import torch_xla
from torch import nn


class Classifier(nn.Module):
    def __init__(self, features, classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(features, 64), nn.GELU())
        self.head = nn.Linear(64, classes)

    def forward(self, x):
        return self.head(self.body(x))


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.device = torch_xla.device()
        self.model = model
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.model.to(self.device)  # error: TX801
        self.loss_fn = nn.CrossEntropyLoss()

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.loss_fn(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return loss

    def fit(self, steps):
        x = torch.randn(32, 20, device=self.device)
        y = torch.randint(0, 5, (32,), device=self.device)
        for _ in range(steps):
            self.train_step(x, y)
            torch_xla.sync()


if __name__ == "__main__":
    Trainer(Classifier(20, 5)).fit(int(os.environ["XLALENS_ORACLE_STEPS"]))
