import torch
import torch.nn as nn


class BottleneckAdapter(nn.Module):
    def __init__(self, d_model, reduction=4):
        super().__init__()
        self.down = nn.Linear(d_model, d_model // reduction)
        self.up = nn.Linear(d_model // reduction, d_model)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(torch.relu(self.down(x)))


class EncoderBlock(nn.Module):
    def __init__(self, d_model, n_heads, d_ff):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.ln1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.ln2 = nn.LayerNorm(d_model)
        self.adapters = nn.ModuleDict()
        self.active_adapter = None

    def forward(self, x, pad_mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, key_padding_mask=pad_mask, need_weights=False)[0]
        h = self.ff(self.ln2(x))
        if self.active_adapter is not None:
            h = self.adapters[self.active_adapter](h)
        return x + h


class TinyEncoderClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab"], cfg["d_model"], padding_idx=0)
        self.blocks = nn.ModuleList(
            EncoderBlock(cfg["d_model"], cfg["n_heads"], cfg["d_ff"]) for _ in range(cfg["n_layers"])
        )
        self.norm = nn.LayerNorm(cfg["d_model"])
        self.head = nn.Linear(cfg["d_model"], cfg["n_labels"])

    def add_adapter(self, name, reduction=4):
        for block in self.blocks:
            block.adapters[name] = BottleneckAdapter(block.ln1.normalized_shape[0], reduction)

    def train_adapter(self, name):
        for p in self.parameters():
            p.requires_grad_(False)
        for block in self.blocks:
            block.active_adapter = name
            for p in block.adapters[name].parameters():
                p.requires_grad_(True)
        for p in self.head.parameters():
            p.requires_grad_(True)

    def forward(self, ids):
        pad_mask = ids.eq(0)
        x = self.embed(ids)
        for block in self.blocks:
            x = block(x, pad_mask)
        x = self.norm(x)
        keep = (~pad_mask).unsqueeze(-1).float()
        pooled = (x * keep).sum(1) / keep.sum(1).clamp_min(1.0)
        return self.head(pooled)
