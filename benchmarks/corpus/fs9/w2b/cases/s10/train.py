import compat  # noqa: F401
import torch
from transformers import BertConfig, BertForSequenceClassification

from config import SelfDistillationConfig
from trainer import SelfDistillationTrainer

torch.manual_seed(0)

model_config = BertConfig(vocab_size=200, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                          intermediate_size=64, max_position_embeddings=32, num_labels=3,
                          hidden_dropout_prob=0.2, attention_probs_dropout_prob=0.1)
model = BertForSequenceClassification(model_config)


def make_batches(n, batch_size=8, seq_len=16):
    batches = []
    for _ in range(n):
        ids = torch.randint(1, 200, (batch_size, seq_len))
        batches.append({"input_ids": ids, "attention_mask": torch.ones_like(ids),
                        "labels": torch.randint(0, 3, (batch_size,))})
    return batches


args = SelfDistillationConfig()
trainer = SelfDistillationTrainer(model, args, make_batches(3))
trainer.train()
