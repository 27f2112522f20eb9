import torch.nn as nn

from attention import BasicTransformerBlock
from util import timestep_embedding


class LatentDenoiser(nn.Module):
    def __init__(self, channels, dim, depth, heads, dim_head, context_dim, use_checkpoint):
        super().__init__()
        self.dim = dim
        self.proj_in = nn.Linear(channels, dim)
        self.time_embed = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.blocks = nn.ModuleList(
            BasicTransformerBlock(dim, heads, dim_head, context_dim, checkpoint=use_checkpoint)
            for _ in range(depth))
        self.proj_out = nn.Linear(dim, channels)

    def freeze_cross_attention(self):
        for blk in self.blocks:
            for p in blk.attn2.parameters():
                p.requires_grad = False

    def forward(self, x, t, context):
        b, c, h, w = x.shape
        tokens = self.proj_in(x.flatten(2).transpose(1, 2))
        tokens = tokens + self.time_embed(timestep_embedding(t, self.dim)).unsqueeze(1)
        for blk in self.blocks:
            tokens = blk(tokens, context=context)
        return self.proj_out(tokens).transpose(1, 2).reshape(b, c, h, w)
