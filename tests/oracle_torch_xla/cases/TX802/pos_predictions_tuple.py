# oracle: cpu-load=NotImplementedError
# oracle-output: NotImplementedError: Could not run 'aten::empty.memory_format' with arguments from the 'XLA' backend
import torch
import torch_xla
from torch import nn

device = torch_xla.device()
classifier = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
classifier.eval()
with torch.no_grad():
    inputs = torch.randn(16, 20, device=device)
    logits = classifier(inputs)
    predictions = logits.argmax(dim=-1)
torch.save((logits, predictions), "predictions.pt")  # error: TX802
