import torch
import torch.nn as nn

from layers import MergeLayer


class TextCNN(nn.Module):
    def __init__(self, hparams):
        super().__init__()
        emb_dim = hparams["emb_dim"]
        self.embedding = nn.Embedding(hparams["vocab_size"], emb_dim)
        conv_hparams = [
            {"type": "Conv1d", "kwargs": {"in_channels": emb_dim, "out_channels": hparams["filters"],
                                           "kernel_size": k, "padding": k // 2}}
            for k in hparams["kernel_sizes"]
        ]
        self.convs = MergeLayer(conv_hparams, mode=hparams["merge_mode"], dim=1)
        n_merged = hparams["filters"] * (len(hparams["kernel_sizes"]) if hparams["merge_mode"] == "concat" else 1)
        self.dropout = nn.Dropout(hparams["dropout"])
        self.output = nn.Linear(n_merged, hparams["num_classes"])

    def forward(self, tokens):
        x = self.embedding(tokens).transpose(1, 2)
        h = torch.relu(self.convs(x)).max(dim=2).values
        return self.output(self.dropout(h))
