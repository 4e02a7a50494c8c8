# oracle: optimizer-steps-per-step=1 idle-optimizer-steps-per-step=1
import os

import torch
import torch_xla
from torch import nn

CONFIG = {"lr": 3e-4, "weight_decay": 0.01, "steps": int(os.environ["XLALENS_ORACLE_STEPS"])}


def build_model():
    return nn.Sequential(nn.Linear(32, 64), nn.LayerNorm(64), nn.ReLU(), nn.Linear(64, 1))


def setup(config, device):
    model = build_model()
    decay = [p for n, p in model.named_parameters() if n.endswith("weight") and p.ndim > 1]
    no_decay = [p for n, p in model.named_parameters() if not (n.endswith("weight") and p.ndim > 1)]
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": config["weight_decay"]}, {"params": no_decay, "weight_decay": 0.0}],
        lr=config["lr"],
    )
    model = model.to(device)  # error: TX801
    return model, optimizer


def train(model, optimizer, device, steps):
    data = torch.randn(16, 32, device=device)
    target = torch.randn(16, 1, device=device)
    for _ in range(steps):
        optimizer.zero_grad()
        loss = (model(data) - target).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


def main():
    device = torch_xla.device()
    model, optimizer = setup(CONFIG, device)
    train(model, optimizer, device, CONFIG["steps"])


main()
