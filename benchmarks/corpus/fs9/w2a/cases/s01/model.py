import torch
from torch import nn
from transformers import BertConfig, BertModel


class SentenceClassifier(nn.Module):
    def __init__(self, model_cfg, num_labels):
        super().__init__()
        self.bert = BertModel(BertConfig(**model_cfg), add_pooling_layer=True)
        hidden = self.bert.config.hidden_size
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Linear(hidden, num_labels)

    def freeze(self, names):
        for name in names:
            module = getattr(self.bert, name)
            module.requires_grad = False

    def forward(self, input_ids, attention_mask):
        out = self.bert(input_ids=input_ids, attention_mask=attention_mask)
        pooled = self.dropout(out.pooler_output)
        return self.head(pooled)
