# oracle: cpu-load=NotImplementedError
# oracle-output: NotImplementedError: Could not run 'aten::empty.memory_format' with arguments from the 'XLA' backend
import os

import torch
import torch_xla
from torch import nn


class Trainer:
    def __init__(self, model, output_dir="checkpoints"):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-3)
        self.output_dir = output_dir
        self.step = 0

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = nn.functional.cross_entropy(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        self.step += 1
        return loss

    def save_checkpoint(self):
        os.makedirs(self.output_dir, exist_ok=True)
        path = os.path.join(self.output_dir, f"step_{self.step}.pt")
        torch.save(  # error: TX802
            {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(), "step": self.step}, path
        )

    def fit(self, steps):
        x = torch.randn(32, 20, device=self.device)
        y = torch.randint(0, 5, (32,), device=self.device)
        for _ in range(steps):
            self.train_step(x, y)
            torch_xla.sync()
        self.save_checkpoint()


Trainer(nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 5))).fit(int(os.environ["XLALENS_ORACLE_STEPS"]))
