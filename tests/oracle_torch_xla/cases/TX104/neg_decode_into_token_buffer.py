# oracle: timed=decode_times timed-share>0.4
import os
import time

import torch
import torch_xla
import torch_xla.core.xla_model as xm

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
hidden, vocab, batch = 1024, 1024, 1024
embed = torch.nn.Embedding(vocab, hidden).to(device)
blocks = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(hidden, hidden), torch.nn.GELU()) for _ in range(3)])
blocks = blocks.to(device)
head = torch.nn.Linear(hidden, vocab).to(device)


@torch.no_grad()
def decode_one_token(tokens):
    return head(blocks(embed(tokens))).argmax(dim=-1)


generated_ids = torch.zeros((batch, STEPS + 1), dtype=torch.long, device=device)
next_token = torch.randint(0, vocab, (batch,), device=device)
next_token = decode_one_token(next_token)
torch_xla.sync()
xm.wait_device_ops()
decode_times = []
for i in range(STEPS):
    step_start = time.time()
    next_token = decode_one_token(next_token)
    # The write into the token buffer is in place: the next sync donates the buffer and waits for
    # this step's graph, so each interval covers the step before it.
    generated_ids[:, i] = next_token
    torch_xla.sync()
    step_end = time.time()
    decode_times.append(step_end - step_start)
    print(f"Step {i} took {step_end - step_start:.3f} seconds.")
