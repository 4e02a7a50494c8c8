# oracle: graph-growth-per-step>0 executions-per-step=0
import os
from dataclasses import dataclass

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


@dataclass
class Config:
    lr: float = 3e-4
    weight_decay: float = 0.01
    max_grad_norm: float = 1.0
    steps: int = STEPS


class Trainer:
    def __init__(self, cfg, model):
        self.cfg = cfg
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)

    def train(self):
        for step in range(self.cfg.steps):  # error: TX102
            x = torch.randn(8, 16, device=self.device)
            self.optimizer.zero_grad()
            loss = self.model(x).pow(2).mean()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.max_grad_norm)
            self.optimizer.step()


trainer = Trainer(Config(), torch.nn.Linear(16, 4))
trainer.train()
