import os
import tempfile

import torch
from transformers import BertConfig, BertForSequenceClassification


def ensure_checkpoint(path=None):
    path = path or os.path.join(tempfile.gettempdir(), "bert-mini-sst")
    if not os.path.isfile(os.path.join(path, "config.json")):
        torch.manual_seed(1234)
        config = BertConfig(
            vocab_size=500,
            hidden_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
            intermediate_size=128,
            max_position_embeddings=64,
            hidden_dropout_prob=0.1,
            attention_probs_dropout_prob=0.1,
            num_labels=2,
        )
        BertForSequenceClassification(config).save_pretrained(path)
    return path
