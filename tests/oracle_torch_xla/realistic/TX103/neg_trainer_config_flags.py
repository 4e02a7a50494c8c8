# oracle: executions-per-step=1 transfers-per-step=0
import os
from dataclasses import dataclass

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


@dataclass
class TrainConfig:
    clip_grad: bool = True
    max_norm: float = 1.0
    label_smoothing: float = 0.1


class Trainer:
    def __init__(self, model, cfg):
        self.cfg = cfg
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def step(self, x, y):
        self.optimizer.zero_grad()
        logits = self.model(x)
        if self.model.training and self.cfg.label_smoothing > 0:
            loss = nn.functional.cross_entropy(logits, y, label_smoothing=self.cfg.label_smoothing)
        else:
            loss = nn.functional.cross_entropy(logits, y)
        loss.backward()
        if self.cfg.clip_grad:
            nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.max_norm)
        self.optimizer.step()

    def fit(self, batches):
        for x, y in batches:
            self.step(x.to(self.device), y.to(self.device))
            torch_xla.sync()


Trainer(nn.Linear(16, 4), TrainConfig()).fit([(torch.randn(8, 16), torch.randint(0, 4, (8,)))] * STEPS)
