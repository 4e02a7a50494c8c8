# oracle: timed=prefill_seconds timed-share<0.2
import os
import time

import torch
import torch_xla
import torch_xla.core.xla_model as xm

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
hidden, vocab, prompt = 1024, 1024, 1024


class TinyLM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, hidden)
        self.layers = torch.nn.ModuleList([torch.nn.Linear(hidden, hidden) for _ in range(3)])
        self.head = torch.nn.Linear(hidden, vocab)

    def forward(self, ids):
        h = self.embed(ids)
        for layer in self.layers:
            h = torch.relu(layer(h))
        return self.head(h)


@torch.no_grad()
def prefill(model, input_ids):
    """Run the prompt through the model and write the first generated token; returns the ids and seconds."""
    generated_ids = torch.zeros((1, prompt + 1), dtype=torch.long, device=device)
    start = time.time()
    logits = model(input_ids)
    next_token = logits[:, -1].argmax(dim=-1)
    xm.mark_step()  # error: TX701
    generated_ids[:, prompt] = next_token
    end = time.time()  # error: TX104
    print(f"Prefill took {end - start} seconds.")
    return generated_ids, end - start


model = TinyLM().to(device).eval()
prompts = [torch.randint(0, vocab, (1, prompt)) for _ in range(STEPS + 2)]
prefill_seconds = 0.0
for request, ids in enumerate(prompts):
    input_ids = ids.to(device)
    generated_ids, seconds = prefill(model, input_ids)
    # The first request compiles the prefill graph; the second compiles it again with the previous
    # request's token write, still pending, in front.
    if request > 1:
        prefill_seconds += seconds
    xm.wait_device_ops()
