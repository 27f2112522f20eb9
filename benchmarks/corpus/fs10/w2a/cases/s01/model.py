import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


class ResidualAttentionBlock(nn.Module):
    def __init__(self, width, heads, mlp_ratio=4.0):
        super().__init__()
        self.ln_1 = nn.LayerNorm(width)
        self.attn = nn.MultiheadAttention(width, heads, batch_first=True)
        self.ln_2 = nn.LayerNorm(width)
        hidden = int(width * mlp_ratio)
        self.mlp = nn.Sequential(nn.Linear(width, hidden), nn.GELU(), nn.Linear(hidden, width))

    def forward(self, x):
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        x = x + self.mlp(self.ln_2(x))
        return x


class Transformer(nn.Module):
    def __init__(self, width, layers, heads):
        super().__init__()
        self.grad_checkpointing = False
        self.resblocks = nn.ModuleList([ResidualAttentionBlock(width, heads) for _ in range(layers)])

    def forward(self, x):
        for r in self.resblocks:
            if self.grad_checkpointing and not torch.jit.is_scripting():
                x = checkpoint(r, x, use_reentrant=True)
            else:
                x = r(x)
        return x


class VisionTransformer(nn.Module):
    def __init__(self, image_size=32, patch_size=8, width=64, layers=4, heads=4, output_dim=32):
        super().__init__()
        grid = image_size // patch_size
        scale = width ** -0.5
        self.conv1 = nn.Conv2d(3, width, patch_size, patch_size, bias=False)
        self.class_embedding = nn.Parameter(scale * torch.randn(width))
        self.positional_embedding = nn.Parameter(scale * torch.randn(grid * grid + 1, width))
        self.ln_pre = nn.LayerNorm(width)
        self.transformer = Transformer(width, layers, heads)
        self.ln_post = nn.LayerNorm(width)
        self.proj = nn.Parameter(scale * torch.randn(width, output_dim))

    def lock(self, unlocked_groups=0):
        for p in self.parameters():
            p.requires_grad = False
        groups = [
            [self.conv1, self.class_embedding, self.positional_embedding, self.ln_pre],
            *self.transformer.resblocks[:-1],
            [self.transformer.resblocks[-1], self.ln_post, self.proj],
        ]
        for group in groups[len(groups) - unlocked_groups:]:
            for item in (group if isinstance(group, list) else [group]):
                if isinstance(item, nn.Parameter):
                    item.requires_grad = True
                else:
                    for p in item.parameters():
                        p.requires_grad = True

    def set_grad_checkpointing(self, enable=True):
        self.transformer.grad_checkpointing = enable

    def forward(self, x):
        x = self.conv1(x).flatten(2).transpose(1, 2)
        cls = self.class_embedding.expand(x.shape[0], 1, -1)
        x = torch.cat([cls, x], dim=1) + self.positional_embedding
        x = self.ln_pre(x)
        x = self.transformer(x)
        x = self.ln_post(x[:, 0])
        return x @ self.proj


class TextEncoder(nn.Module):
    def __init__(self, vocab_size=100, width=48, output_dim=32):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, width)
        self.ln_final = nn.LayerNorm(width)
        self.text_projection = nn.Linear(width, output_dim, bias=False)

    def forward(self, tokens):
        x = self.token_embedding(tokens).mean(dim=1)
        return self.text_projection(self.ln_final(x))


class CLIP(nn.Module):
    def __init__(self, embed_dim=32):
        super().__init__()
        self.visual = VisionTransformer(output_dim=embed_dim)
        self.text = TextEncoder(output_dim=embed_dim)
        self.logit_scale = nn.Parameter(torch.tensor(2.6592))

    def forward(self, images, tokens):
        image_features = F.normalize(self.visual(images), dim=-1)
        text_features = F.normalize(self.text(tokens), dim=-1)
        return image_features, text_features, self.logit_scale.exp()
