import torch
import torch_xla

device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _step in range(3):
    optimizer.zero_grad()
    loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
    loss.backward()
    print("loss", loss.item())
    optimizer.step()
    torch_xla.sync()
for rows in (3, 5):
    out = model(torch.randn(rows, 16, device=device)).sum()
    torch_xla.sync()
