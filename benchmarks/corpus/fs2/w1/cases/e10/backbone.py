import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SamePad(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.remove = 1 if kernel_size % 2 == 0 else 0

    def forward(self, x):
        if self.remove > 0:
            x = x[:, :, : -self.remove]
        return x


class TransformerSentenceEncoderLayer(nn.Module):
    def __init__(self, dim, ffn_dim, heads, dropout):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.self_attn_layer_norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, ffn_dim)
        self.fc2 = nn.Linear(ffn_dim, dim)
        self.final_layer_norm = nn.LayerNorm(dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, padding_mask=None):
        residual = x
        x, _ = self.self_attn(x, x, x, key_padding_mask=padding_mask, need_weights=False)
        x = self.self_attn_layer_norm(residual + self.dropout(x))
        residual = x
        x = self.fc2(self.dropout(F.gelu(self.fc1(x))))
        return self.final_layer_norm(residual + self.dropout(x))


class TransformerEncoder(nn.Module):
    def __init__(self, dim=64, ffn_dim=128, heads=4, layers=2, conv_pos=16, conv_pos_groups=4, dropout=0.1):
        super().__init__()
        self.pos_conv = nn.Conv1d(dim, dim, kernel_size=conv_pos, padding=conv_pos // 2, groups=conv_pos_groups)
        std = math.sqrt(4 / (conv_pos * dim))
        nn.init.normal_(self.pos_conv.weight, mean=0, std=std)
        nn.init.constant_(self.pos_conv.bias, 0)
        self.pos_conv = nn.utils.parametrizations.weight_norm(self.pos_conv, name="weight", dim=2)
        self.pos_conv = nn.Sequential(self.pos_conv, SamePad(conv_pos), nn.GELU())
        self.layers = nn.ModuleList([TransformerSentenceEncoderLayer(dim, ffn_dim, heads, dropout) for _ in range(layers)])
        self.layer_norm = nn.LayerNorm(dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, padding_mask=None):
        if padding_mask is not None:
            x = x.masked_fill(padding_mask.unsqueeze(-1), 0)
        x_conv = self.pos_conv(x.transpose(1, 2))
        x_conv = x_conv.transpose(1, 2)
        x += x_conv
        x = self.layer_norm(x)
        x = self.dropout(x)
        for layer in self.layers:
            x = layer(x, padding_mask)
        return x
