import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

from moe import MoE


class Block(nn.Module):
    def __init__(self, dim, n_head, num_experts, top_k):
        super().__init__()
        self.attn_norm = nn.RMSNorm(dim)
        self.attn = nn.MultiheadAttention(dim, n_head, batch_first=True)
        self.ffn_norm = nn.RMSNorm(dim)
        self.moe = MoE(dim, 2 * dim, num_experts, top_k)

    def forward(self, x, mask):
        h = self.attn_norm(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.moe(self.ffn_norm(x))


class MoETransformer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg["vocab"], cfg["dim"])
        self.layers = nn.ModuleList(
            [Block(cfg["dim"], cfg["n_head"], cfg["num_experts"], cfg["top_k"]) for _ in range(cfg["n_layers"])]
        )
        self.norm = nn.RMSNorm(cfg["dim"])
        self.output = nn.Linear(cfg["dim"], cfg["vocab"], bias=False)

    def forward(self, tokens):
        T = tokens.size(1)
        mask = torch.triu(torch.full((T, T), float("-inf")), diagonal=1)
        h = self.embed(tokens)
        for layer in self.layers:
            if self.cfg["activation_checkpoint"] and self.training:
                h = checkpoint(layer, h, mask, use_reentrant=False)
            else:
                h = layer(h, mask)
        return self.output(self.norm(h))

    def moe_layers(self):
        return [layer.moe for layer in self.layers]
