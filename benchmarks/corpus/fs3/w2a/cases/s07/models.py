import compat  # noqa: F401
import torch
from torch import nn
from transformers import BertConfig, BertModel

from crf import CRF


class HMNeTNERModel(nn.Module):
    def __init__(self, label_list, args):
        super().__init__()
        self.args = args
        self.bert = BertModel(BertConfig(**args.bert_config), add_pooling_layer=False)
        self.bert_config = self.bert.config
        self.num_labels = len(label_list)
        self.crf = CRF(self.num_labels, batch_first=True)
        self.fc = nn.Linear(self.bert_config.hidden_size, self.num_labels)
        self.dropout = nn.Dropout(0.1)
        self.encoder_conv = nn.Sequential(nn.Linear(args.img_feat_dim, 64), nn.Tanh(), nn.Linear(64, 2 * 32))
        self.gates = nn.ModuleList([nn.Linear(2 * 32, 2) for _ in range(self.bert_config.num_hidden_layers)])

    def forward(self, input_ids, attention_mask, token_type_ids, labels, images):
        prompt = self.encoder_conv(images)
        gate = torch.stack([torch.softmax(g(prompt), dim=-1)[:, 0] for g in self.gates], dim=-1).mean(-1)
        output = self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
        sequence_output = self.dropout(output.last_hidden_state * gate[:, None, None])
        emissions = self.fc(sequence_output)
        logits = self.crf.decode(emissions, attention_mask.byte())
        loss = -1 * self.crf(emissions, labels, mask=attention_mask.byte(), reduction="mean")
        return logits, loss
