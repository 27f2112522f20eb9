"""T5 (transformers' own T5ForConditionalGeneration, tiny random config): labels are shifted
into decoder_input_ids by the model itself; padded labels are -100; AdamW."""

import _cpu_torchvision  # noqa: F401  (see that module: torchvision's CUDA wheel on a CPU torch)

import torch
from transformers import T5Config, T5ForConditionalGeneration

torch.manual_seed(0)

config = T5Config(
    vocab_size=128, d_model=32, d_kv=8, d_ff=64, num_layers=2, num_decoder_layers=2, num_heads=4,
    relative_attention_num_buckets=8, dropout_rate=0.1, pad_token_id=0, eos_token_id=1,
    decoder_start_token_id=0,
)
model = T5ForConditionalGeneration(config)
model.train()

batch, src_len, tgt_len = 4, 16, 8
src_lengths = torch.tensor([16, 13, 11, 6])
attention_mask = (torch.arange(src_len)[None, :] < src_lengths[:, None]).long()
input_ids = torch.randint(2, config.vocab_size, (batch, src_len)).masked_fill(attention_mask == 0, 0)
tgt_lengths = torch.tensor([8, 6, 5, 3])
labels = torch.randint(2, config.vocab_size, (batch, tgt_len))
labels[torch.arange(batch), tgt_lengths - 1] = config.eos_token_id
labels = labels.masked_fill(torch.arange(tgt_len)[None, :] >= tgt_lengths[:, None], -100)

optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(4):
    loss = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels).loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    generated = model.generate(input_ids=input_ids[:2], attention_mask=attention_mask[:2], max_new_tokens=5,
                               do_sample=False)
print("generated", generated.tolist())
