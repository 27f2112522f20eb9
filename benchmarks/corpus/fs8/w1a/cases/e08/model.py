import torch
from torch import nn
from transformers import BertConfig, BertModel


class GraphAttentionLayer(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x, node_mask):
        out, _ = self.attn(x, x, x, key_padding_mask=~node_mask)
        return self.norm(x + out)


class DialogueGraphClassifier(nn.Module):
    def __init__(self, bert_config: BertConfig, num_labels=3, gnn_layers=2):
        super().__init__()
        self.bert = BertModel(bert_config)
        dim = bert_config.hidden_size
        self.gnn = nn.ModuleList(GraphAttentionLayer(dim) for _ in range(gnn_layers))
        self.classifier = nn.Linear(dim, num_labels)

    def encode_nodes(self, input_ids, node_mask):
        b, n, t = input_ids.shape
        flat = input_ids.view(b * n, t)
        attention_mask = (flat != 0).long()
        attention_mask[:, 0] = 1
        nodes = self.bert(input_ids=flat, attention_mask=attention_mask).pooler_output
        nodes = nodes.view(b, n, -1)
        pad = ~node_mask
        if pad.any():
            nodes[pad] = 0.0
        return nodes

    def forward(self, input_ids, node_mask):
        nodes = self.encode_nodes(input_ids, node_mask)
        for layer in self.gnn:
            nodes = layer(nodes, node_mask)
        m = node_mask.unsqueeze(-1).float()
        graph = (nodes * m).sum(1) / m.sum(1).clamp(min=1.0)
        return self.classifier(graph)
