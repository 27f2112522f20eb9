"""GPT-2 (transformers' own GPT2LMHeadModel, tiny random config) on a right-padded batch:
attention_mask marks the pads, labels are -100 there so the loss ignores them; AdamW."""

import _cpu_torchvision  # noqa: F401  (see that module: torchvision's CUDA wheel on a CPU torch)

import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)

config = GPT2Config(vocab_size=128, n_positions=32, n_embd=32, n_layer=2, n_head=2,
                    bos_token_id=1, eos_token_id=1, pad_token_id=0)
model = GPT2LMHeadModel(config)
model.train()

batch, seq = 4, 16
lengths = torch.tensor([16, 12, 9, 5])
input_ids = torch.randint(1, config.vocab_size, (batch, seq))
attention_mask = (torch.arange(seq)[None, :] < lengths[:, None]).long()
input_ids = input_ids.masked_fill(attention_mask == 0, config.pad_token_id)
labels = input_ids.masked_fill(attention_mask == 0, -100)

optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(4):
    out = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels)
    optimizer.zero_grad()
    out.loss.backward()
    optimizer.step()
    print(f"step {step} loss {out.loss.item():.4f}")

model.eval()
with torch.no_grad():
    logits = model(input_ids=input_ids, attention_mask=attention_mask).logits
print("logits", tuple(logits.shape), f"{logits[0, -1].abs().sum().item():.4f}")
