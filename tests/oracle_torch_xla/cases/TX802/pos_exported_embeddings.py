# oracle: cpu-load=NotImplementedError
# oracle-output: NotImplementedError: Could not run 'aten::empty.memory_format' with arguments from the 'XLA' backend
import torch
import torch_xla
from torch import nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 16)
        self.proj = nn.Linear(16, 8)

    def forward(self, ids):
        return self.proj(self.embed(ids)).mean(dim=1)


@torch.no_grad()
def export_embeddings(path):
    device = torch_xla.device()
    encoder = Encoder().to(device)
    encoder.eval()
    ids = torch.randint(0, 100, (10, 5), device=device)
    embeddings = encoder(ids)
    torch.save(embeddings, path)  # error: TX802


export_embeddings("embeddings.pt")
