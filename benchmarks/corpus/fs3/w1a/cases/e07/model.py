"""Siamese sentence encoder: a small BERT with an orthogonal projection head."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parametrizations
from transformers import BertConfig, BertModel


class SiameseEncoder(nn.Module):
    def __init__(self, vocab_size=200, hidden=64, layers=2, heads=4, proj_dim=64):
        super().__init__()
        config = BertConfig(vocab_size=vocab_size, hidden_size=hidden, num_hidden_layers=layers,
                            num_attention_heads=heads, intermediate_size=hidden * 2,
                            max_position_embeddings=64, hidden_dropout_prob=0.1,
                            attention_probs_dropout_prob=0.1)
        self.bert = BertModel(config, add_pooling_layer=False)
        self.proj = parametrizations.orthogonal(nn.Linear(hidden, proj_dim, bias=False))

    def encode(self, input_ids, attention_mask):
        out = self.bert(input_ids=input_ids, attention_mask=attention_mask)
        mask = attention_mask.unsqueeze(-1).float()
        pooled = (out.last_hidden_state * mask).sum(1) / mask.sum(1).clamp_min(1.0)
        return F.normalize(self.proj(pooled), dim=-1)

    def forward(self, a_ids, a_mask, b_ids, b_mask):
        return self.encode(a_ids, a_mask), self.encode(b_ids, b_mask)


def contrastive_loss(za, zb, temperature=0.05):
    logits = za @ zb.T / temperature
    labels = torch.arange(za.size(0))
    return 0.5 * (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels))
