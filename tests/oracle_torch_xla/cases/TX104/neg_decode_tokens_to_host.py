# oracle: timed=decode_times timed-share>0.5
import os
import time

import torch
import torch_xla
import torch_xla.core.xla_model as xm

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
hidden, vocab = 1024, 1024
embed = torch.nn.Embedding(vocab, hidden).to(device)
blocks = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(hidden, hidden), torch.nn.GELU()) for _ in range(3)])
blocks = blocks.to(device)
head = torch.nn.Linear(hidden, vocab).to(device)


@torch.no_grad()
def decode_one_token(tokens):
    logits = head(blocks(embed(tokens)))
    return logits.argmax(dim=-1)


next_token = torch.randint(0, vocab, (1024,), device=device)
next_token = decode_one_token(next_token)
torch_xla.sync()
xm.wait_device_ops()
decode_times = []
generated = []
for i in range(STEPS):
    step_start = time.time()
    next_token = decode_one_token(next_token)
    torch_xla.sync()
    generated.append(next_token.cpu())
    step_end = time.time()
    step_time = step_end - step_start
    decode_times.append(step_time)
    print(f"Step {i} took {step_time} seconds.")
