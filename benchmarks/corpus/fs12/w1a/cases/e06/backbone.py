import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, patch_size=8, in_chans=3, embed_dim=96):
        super().__init__()
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class Block(nn.Module):
    def __init__(self, dim, heads, mlp_ratio=4.0):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, int(dim * mlp_ratio)), nn.GELU(), nn.Linear(int(dim * mlp_ratio), dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class VisionTransformer(nn.Module):
    def __init__(self, img_size=64, patch_size=8, embed_dim=96, depth=4, num_heads=4):
        super().__init__()
        self.patch_size = patch_size
        self.patch_embed = PatchEmbed(patch_size, 3, embed_dim)
        num_patches = (img_size // patch_size) ** 2
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches + 1, embed_dim) * 0.02)
        self.blocks = nn.ModuleList([Block(embed_dim, num_heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(embed_dim, eps=1e-6)

    def prepare_tokens(self, x):
        x = self.patch_embed(x)
        x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1)
        return x + self.pos_embed

    def get_intermediate_layers(self, x, n=(0, 1, 2, 3), reshape=True, return_class_token=True):
        B, _, H, W = x.shape
        x = self.prepare_tokens(x)
        outputs = []
        for i, blk in enumerate(self.blocks):
            x = blk(x)
            if i in n:
                outputs.append(self.norm(x))
        class_tokens = [out[:, 0] for out in outputs]
        patch_tokens = [out[:, 1:] for out in outputs]
        if reshape:
            hp, wp = H // self.patch_size, W // self.patch_size
            patch_tokens = [p.reshape(B, hp, wp, -1).permute(0, 3, 1, 2).contiguous() for p in patch_tokens]
        if return_class_token:
            return tuple(zip(patch_tokens, class_tokens))
        return tuple(patch_tokens)
