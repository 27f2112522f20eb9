import torch
import torch.nn as nn

import compat  # noqa: F401
from transformers import BertConfig, BertModel


class SentenceEncoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.transformer = BertModel(config, add_pooling_layer=False)

    def forward(self, features):
        out = self.transformer(input_ids=features["input_ids"],
                               attention_mask=features["attention_mask"])
        token_embeddings = out.last_hidden_state
        mask = features["attention_mask"].unsqueeze(-1).to(token_embeddings.dtype)
        summed = (token_embeddings * mask).sum(dim=1)
        counts = mask.sum(dim=1).clamp(min=1e-9)
        return summed / counts


def build_encoder(vocab_size=200):
    config = BertConfig(
        vocab_size=vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=64,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    return SentenceEncoder(config)
