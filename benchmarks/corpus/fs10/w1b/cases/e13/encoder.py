import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


class PatchEmbed(nn.Module):
    def __init__(self, in_chans, embed_dim, patch_size):
        super().__init__()
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class Block(nn.Module):
    def __init__(self, dim, heads, mlp_ratio=2.0):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, int(dim * mlp_ratio)), nn.GELU(), nn.Linear(int(dim * mlp_ratio), dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class EmbeddingHead(nn.Module):
    def __init__(self, dim, out_dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.proj = nn.Linear(dim, out_dim)

    def forward(self, x):
        return F.normalize(self.proj(self.norm(x).mean(1)), dim=-1)


class RetrievalEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.patch_embed = PatchEmbed(cfg["in_chans"], cfg["dim"], cfg["patch_size"])
        num_patches = (cfg["img_size"] // cfg["patch_size"]) ** 2
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches, cfg["dim"]))
        nn.init.trunc_normal_(self.pos_embed, std=0.02)
        self.stages = nn.ModuleList([Block(cfg["dim"], cfg["heads"]) for _ in range(cfg["depth"])])
        self.stages.append(EmbeddingHead(cfg["dim"], cfg["embed_dim"]))
        self.freeze_stem = cfg["freeze_stem"]
        self.grad_checkpointing = cfg["grad_checkpointing"]
        self.use_reentrant = cfg["checkpoint_use_reentrant"]

    def forward_stem(self, images):
        x = self.patch_embed(images) + self.pos_embed
        if self.freeze_stem:
            x = x.detach()
        return x

    def forward(self, images):
        x = self.forward_stem(images)
        for stage in self.stages:
            if self.grad_checkpointing and self.training:
                x = checkpoint(stage, x, use_reentrant=self.use_reentrant)
            else:
                x = stage(x)
        return x
