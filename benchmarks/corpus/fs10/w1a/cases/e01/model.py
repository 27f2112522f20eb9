import compat  # noqa: F401
import torch
import torch.nn as nn
from transformers import BertConfig, BertModel


class SpanExtractor(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.bert = BertModel(config, add_pooling_layer=False)
        self.qa_outputs = nn.Linear(config.hidden_size, 2)

    def forward(self, input_ids, attention_mask=None, start_positions=None, end_positions=None):
        hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        logits = self.qa_outputs(hidden)
        start_logits, end_logits = logits.split(1, dim=-1)
        start_logits = start_logits.squeeze(-1).contiguous()
        end_logits = end_logits.squeeze(-1).contiguous()

        total_loss = None
        if start_positions is not None and end_positions is not None:
            ignored_index = start_logits.size(1)
            loss_fct = nn.CrossEntropyLoss(ignore_index=ignored_index)
            losses = []
            for span_logits, positions in ((start_logits, start_positions), (end_logits, end_positions)):
                positions.clamp_(0, ignored_index)
                losses.append(loss_fct(span_logits, positions))
            total_loss = sum(losses) / len(losses)
        return {"loss": total_loss, "start_logits": start_logits, "end_logits": end_logits}


def build_model(hidden_size, num_layers, vocab_size=200, max_len=64):
    config = BertConfig(
        vocab_size=vocab_size,
        hidden_size=hidden_size,
        num_hidden_layers=num_layers,
        num_attention_heads=4,
        intermediate_size=hidden_size * 2,
        max_position_embeddings=max_len,
    )
    return SpanExtractor(config)
