# oracle: optimizer-steps-per-step=1 idle-optimizer-steps-per-step=0
import os

import torch
import torch_xla
from torch import nn


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.device = torch_xla.device()
        self.model = model
        self.model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
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
    Trainer(nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 5))).fit(int(os.environ["XLALENS_ORACLE_STEPS"]))
