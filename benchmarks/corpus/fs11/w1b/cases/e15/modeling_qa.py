import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import BertConfig, BertModel


def clamp_positions(positions, ignored_index):
    return [p.clamp_(0, ignored_index) for p in positions]


class BertForQuestionAnswering(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.bert = BertModel(config, add_pooling_layer=False)
        self.qa_outputs = nn.Linear(config.hidden_size, 2)

    def get_input_embeddings(self):
        return self.bert.embeddings.word_embeddings

    def forward(self, input_ids=None, attention_mask=None, token_type_ids=None, inputs_embeds=None,
                start_positions=None, end_positions=None):
        outputs = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                            token_type_ids=token_type_ids, inputs_embeds=inputs_embeds)
        sequence_output = outputs[0]
        logits = self.qa_outputs(sequence_output)
        start_logits, end_logits = logits.split(1, dim=-1)
        start_logits = start_logits.squeeze(-1)
        end_logits = end_logits.squeeze(-1)

        total_loss = None
        if start_positions is not None and end_positions is not None:
            ignored_index = start_logits.size(1)
            start_positions, end_positions = clamp_positions([start_positions, end_positions], ignored_index)
            start_loss = F.cross_entropy(start_logits, start_positions, ignore_index=ignored_index)
            end_loss = F.cross_entropy(end_logits, end_positions, ignore_index=ignored_index)
            total_loss = (start_loss + end_loss) / 2
        return total_loss, start_logits, end_logits


def build_model():
    config = BertConfig(vocab_size=200, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=64, max_position_embeddings=64)
    return BertForQuestionAnswering(config)
