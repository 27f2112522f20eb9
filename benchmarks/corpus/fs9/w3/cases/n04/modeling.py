import compat  # noqa: F401
import torch
import torch.nn as nn
from transformers import BertConfig, BertModel


class BertForTagging(nn.Module):
    def __init__(self, config: BertConfig, num_labels: int):
        super().__init__()
        self.bert = BertModel(config, add_pooling_layer=False)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.classifier = nn.Linear(config.hidden_size, num_labels)
        self.num_labels = num_labels

    def forward(self, input_ids, attention_mask, labels=None):
        hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        logits = self.classifier(self.dropout(hidden))
        loss = None
        if labels is not None:
            loss = nn.functional.cross_entropy(logits.view(-1, self.num_labels), labels.view(-1),
                                               ignore_index=-100)
        return loss, logits

    def unfreezing_stages(self):
        """Parameter blocks from the top of the network down, for gradual unfreezing."""
        stages = [list(self.classifier.parameters())]
        for layer in reversed(self.bert.encoder.layer):
            stages.append(list(layer.parameters()))
        stages.append(list(self.bert.embeddings.parameters()))
        return stages
