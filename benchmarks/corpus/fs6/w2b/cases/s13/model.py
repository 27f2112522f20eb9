import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint
from transformers import BertConfig, BertModel


class BertSpanClassifier(nn.Module):
    def __init__(self, bert_config, num_labels, layers_to_freeze=None, grad_checkpoint=False):
        super().__init__()
        self.transformer_model = BertModel(bert_config, add_pooling_layer=False)
        self.dropout = nn.Dropout(bert_config.hidden_dropout_prob)
        self.classifier = nn.Linear(bert_config.hidden_size, num_labels)
        self.grad_checkpoint = grad_checkpoint
        if layers_to_freeze is not None:
            modules = [self.transformer_model.embeddings,
                       *self.transformer_model.encoder.layer[:layers_to_freeze]]
            for module in modules:
                for param in module.parameters():
                    param.requires_grad = False

    def encode(self, input_ids, attention_mask):
        hidden_states = self.transformer_model.embeddings(input_ids=input_ids)
        extended_mask = (1.0 - attention_mask[:, None, None, :].to(hidden_states.dtype)) * -10000.0
        for layer_module in self.transformer_model.encoder.layer:
            if self.grad_checkpoint and self.training:
                hidden_states = checkpoint(layer_module, hidden_states, extended_mask, use_reentrant=True)
            else:
                hidden_states = layer_module(hidden_states, extended_mask)
        return hidden_states

    def forward(self, input_ids, attention_mask, labels=None):
        sequence_output = self.encode(input_ids, attention_mask)
        logits = self.classifier(self.dropout(sequence_output[:, 0]))
        loss = None
        if labels is not None:
            loss = nn.functional.cross_entropy(logits, labels)
        return loss, logits


def build_model(cfg):
    bert_config = BertConfig(
        vocab_size=cfg["vocab_size"], hidden_size=32, num_hidden_layers=4, num_attention_heads=4,
        intermediate_size=64, max_position_embeddings=64,
    )
    bert_config._attn_implementation = "eager"
    return BertSpanClassifier(bert_config, cfg["num_labels"], layers_to_freeze=cfg["layers_to_freeze"],
                              grad_checkpoint=cfg["grad_checkpoint"])
