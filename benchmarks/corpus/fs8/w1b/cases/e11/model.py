import torch
import torch.nn as nn
import torch.utils.checkpoint as cp


class Adapter(nn.Module):
    def __init__(self, dim, bottleneck):
        super().__init__()
        self.down = nn.Linear(dim, bottleneck)
        self.up = nn.Linear(bottleneck, dim)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(torch.relu(self.down(x)))


class Block(nn.Module):
    def __init__(self, dim, heads, adapter_dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.adapter = Adapter(dim, adapter_dim)

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        x = x + self.adapter(self.mlp(self.norm2(x)))
        return x


class Encoder(nn.Module):
    def __init__(self, dim, depth, heads, num_classes, adapter_dim, vocab=256, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(1, max_len, dim))
        self.blocks = nn.ModuleList(Block(dim, heads, adapter_dim) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)
        self.gradient_checkpointing = False

    def enable_gradient_checkpointing(self):
        self.gradient_checkpointing = True

    def forward(self, ids):
        x = self.tok(ids) + self.pos[:, : ids.size(1)]
        for blk in self.blocks:
            if self.gradient_checkpointing and self.training:
                x = cp.checkpoint(blk, x, use_reentrant=True)
            else:
                x = blk(x)
        return self.head(self.norm(x).mean(1))
