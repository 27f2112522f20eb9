import compat  # noqa: F401
import torch
from torch.optim import AdamW
from transformers import BertConfig, BertForSequenceClassification

from vocab import collect_used_token_ids, reduce_train_vocab

config = BertConfig(
    vocab_size=500, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
    intermediate_size=64, max_position_embeddings=64, num_labels=3,
    hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
)
torch.manual_seed(0)
model = BertForSequenceClassification(config)
optimizer = AdamW(model.parameters(), lr=5e-3, weight_decay=0.01)

CLS, SEP, PAD = 1, 2, 0
generator = torch.Generator().manual_seed(1)


def make_batch(batch_size=8, seq_len=12):
    body = torch.randint(10, 120, (batch_size, seq_len - 2), generator=generator)
    input_ids = torch.cat([torch.full((batch_size, 1), CLS), body,
                           torch.full((batch_size, 1), SEP)], dim=1)
    labels = torch.randint(0, 3, (batch_size,), generator=generator)
    return input_ids, labels


batches = [make_batch() for _ in range(6)]
used_ids = collect_used_token_ids(batches, special_ids=[PAD, CLS, SEP])

model.train()
with reduce_train_vocab(model, used_ids) as remap:
    for epoch in range(2):
        for step, (input_ids, labels) in enumerate(batches):
            out = model(input_ids=remap(input_ids), labels=labels)
            optimizer.zero_grad()
            out.loss.backward()
            optimizer.step()
            print(f"epoch {epoch} step {step}: loss {out.loss.item():.4f}")
