"""BERT (transformers' own BertForSequenceClassification, tiny random config) on padded
sequences: pad_token_id in the config (the embedding's padding_idx), attention_mask, AdamW."""

import _cpu_torchvision  # noqa: F401  (see that module: torchvision's CUDA wheel on a CPU torch)

import torch
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)

config = BertConfig(
    vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
    intermediate_size=64, max_position_embeddings=32, num_labels=3, pad_token_id=0,
)
model = BertForSequenceClassification(config)
model.train()

batch, seq = 4, 16
lengths = torch.tensor([16, 10, 7, 3])
attention_mask = (torch.arange(seq)[None, :] < lengths[:, None]).long()
input_ids = torch.randint(1, config.vocab_size, (batch, seq)).masked_fill(attention_mask == 0, config.pad_token_id)
token_type_ids = torch.zeros_like(input_ids)
labels = torch.tensor([0, 1, 2, 1])

optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(4):
    out = model(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids, labels=labels)
    optimizer.zero_grad()
    out.loss.backward()
    optimizer.step()
    print(f"step {step} loss {out.loss.item():.4f}")

model.eval()
with torch.no_grad():
    predictions = model(input_ids=input_ids, attention_mask=attention_mask).logits.argmax(-1)
print("predictions", predictions.tolist())
pad_row = model.bert.embeddings.word_embeddings.weight[config.pad_token_id]
print("pad embedding stays zero:", bool((pad_row == 0).all()))
