# oracle: timed=trainer.latencies timed-share<0.2
import os
import time

import torch
import torch_xla
import torch_xla.core.xla_model as xm

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class Trainer:
    def __init__(self, model):
        self.device = torch_xla.device()
        self.model = model.to(self.device)
        self.latencies = []

    def _flush(self):
        torch_xla.sync()

    @torch.no_grad()
    def probe_latency(self, batch):
        """Wall time of one forward pass, logged next to the training metrics."""
        self.model.eval()
        xm.wait_device_ops()
        t0 = time.monotonic()
        logits = self.model(batch)
        self._flush()
        latency = time.monotonic() - t0  # error: TX104
        self.model.train()
        return logits, latency


trainer = Trainer(torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.GELU(), torch.nn.Linear(1024, 1024)))
batch = torch.randn(1024, 1024, device=trainer.device)
torch_xla.sync()
trainer.probe_latency(batch)
for _ in range(STEPS):
    _, latency = trainer.probe_latency(batch)
    trainer.latencies.append(latency)
