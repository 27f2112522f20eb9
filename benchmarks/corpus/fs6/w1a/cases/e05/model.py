import torch
import torch.nn as nn
import torch.nn.functional as F

from rotary import RotaryEmbedding, scale_for


class Attention(nn.Module):
    def __init__(self, dim, heads, rotary):
        super().__init__()
        self.heads = heads
        self.dim_head = dim // heads
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)
        self.rotary = rotary

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, self.heads, self.dim_head).permute(2, 0, 3, 1, 4)
        q = self.rotary.rotate_queries_or_keys(q)
        k = self.rotary.rotate_queries_or_keys(k)
        att = (q @ k.transpose(-1, -2)) * scale_for(self.dim_head)
        mask = torch.ones(n, n, dtype=torch.bool).triu(1)
        att = att.masked_fill(mask, float("-inf")).softmax(dim=-1)
        return self.out((att @ v).transpose(1, 2).reshape(b, n, d))


class Block(nn.Module):
    def __init__(self, dim, heads, rotary):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, heads, rotary)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rotary = RotaryEmbedding(dim // heads)
        self.blocks = nn.ModuleList(Block(dim, heads, self.rotary) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids, targets=None):
        x = self.embed(ids)
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.norm(x))
        if targets is None:
            return logits
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))


def set_trainable(model, mode):
    if mode == "full":
        for p in model.parameters():
            p.requires_grad_(True)
    elif mode == "head":
        for name, p in model.named_parameters():
            p.requires_grad_(name.startswith("lm_head"))
    else:
        raise ValueError(mode)
