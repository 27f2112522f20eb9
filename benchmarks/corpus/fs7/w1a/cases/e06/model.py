import compat  # noqa: F401
import torch.nn as nn
import torch.nn.functional as F
from transformers import BertConfig, BertModel

from smart import SMARTLoss, kl_loss, sym_kl_loss


class SMARTBertClassifier(nn.Module):
    def __init__(self, config, num_labels, weight=1.0):
        super().__init__()
        self.bert = BertModel(config, add_pooling_layer=True)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.classifier = nn.Linear(config.hidden_size, num_labels)
        self.weight = weight

    def classify(self, embeds, attention_mask):
        out = self.bert(inputs_embeds=embeds, attention_mask=attention_mask)
        return self.classifier(self.dropout(out.pooler_output))

    def forward(self, input_ids, attention_mask, labels=None):
        embeds = self.bert.embeddings.word_embeddings(input_ids)

        def eval_fn(embed):
            return self.classify(embeds, attention_mask)

        smart_loss_fn = SMARTLoss(eval_fn=eval_fn, loss_fn=kl_loss, loss_last_fn=sym_kl_loss)
        state = eval_fn(embeds)
        if labels is None:
            return state
        loss = F.cross_entropy(state, labels)
        loss = loss + self.weight * smart_loss_fn(embeds, state)
        return state, loss


def build_model(num_labels=3):
    config = BertConfig(vocab_size=500, hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=128,
                        max_position_embeddings=64)
    return SMARTBertClassifier(config, num_labels)
