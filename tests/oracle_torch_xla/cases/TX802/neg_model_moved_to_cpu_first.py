# oracle: cpu-load=ok
import os

import torch
import torch_xla
from torch import nn


class Trainer:
    def __init__(self, model):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def fit(self, steps):
        x = torch.randn(32, 20, device=self.device)
        y = torch.randint(0, 5, (32,), device=self.device)
        for _ in range(steps):
            self.optimizer.zero_grad()
            nn.functional.cross_entropy(self.model(x), y).backward()
            self.optimizer.step()
            torch_xla.sync()

    def export(self, path):
        torch.save(self.model.cpu().state_dict(), path)


trainer = Trainer(nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 5)))
trainer.fit(int(os.environ["XLALENS_ORACLE_STEPS"]))
trainer.export("final.pt")
