import compat  # noqa: F401
import torch
import torch.nn as nn
from transformers import BertConfig, BertModel


class HierarchicalClassifier(nn.Module):
    """Predicts the level-1 label, appends its label tokens to the sentence, predicts the level-2 label."""

    def __init__(self, config, num_label_a, num_label_b):
        super().__init__()
        self.bert = BertModel(config, add_pooling_layer=True)
        for param in self.bert.parameters():
            param.requires_grad = True
        self.fc1 = nn.Linear(config.hidden_size, num_label_a)
        self.fc2 = nn.Linear(config.hidden_size, num_label_b)

    def forward(self, x, label_A_emb):
        context = x[0]
        mask = x[2]

        d1 = self.bert(context, attention_mask=mask)
        logit1 = self.fc1(d1[1])
        idx = torch.max(logit1.data, 1)[1]
        extra = label_A_emb[idx]

        context[:, -3:] = extra
        mask[:, -3:] = 1

        d2 = self.bert(context, attention_mask=mask)
        logit2 = self.fc2(d2[1])
        return logit1, logit2
