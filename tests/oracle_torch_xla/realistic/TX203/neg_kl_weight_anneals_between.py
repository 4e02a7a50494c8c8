# oracle: compiles=2
# Adam's first step builds its state, so step 2 compiles once more; the schedule adds nothing after.
import os

import torch
import torch_xla
from torch import nn

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


class VAE(nn.Module):
    def __init__(self, d_in=16, d_latent=4):
        super().__init__()
        self.enc = nn.Linear(d_in, 2 * d_latent)
        self.dec = nn.Linear(d_latent, d_in)

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


def train(model, optimizer, device, steps, anneal_steps=100):
    for step in range(steps):
        x = torch.randn(8, 16, device=device)
        recon, mu, logvar = model(x)
        kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(-1).mean()
        kl_weight = 0.1 + 0.8 * min(1.0, step / anneal_steps)
        loss = nn.functional.mse_loss(recon, x) + kl_weight * kl
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


device = torch_xla.device()
vae = VAE().to(device)
train(vae, torch.optim.Adam(vae.parameters(), lr=1e-3), device, STEPS)
