import torch
import torch.nn as nn


class MessengerAttention(nn.Module):
    """Local attention inside each clip window; token 0 of every window is a
    messenger token that also attends across windows of the same video."""

    def __init__(self, dim, heads=4):
        super().__init__()
        self.local_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.global_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm = nn.LayerNorm(dim)
        self.norm_messenger = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def forward(self, x, b):
        # x: (b * n_windows, tokens, dim)
        h = self.norm(x)
        x = x + self.local_attn(h, h, h, need_weights=False)[0]
        messenger_tokens = x[:, 0].reshape(b, -1, x.shape[-1])
        m = self.norm_messenger(messenger_tokens)
        mixed = self.global_attn(m, m, m, need_weights=False)[0]
        x[:, 0] = mixed.reshape(-1, x.shape[-1])
        return x + self.mlp(self.norm(x))


class VideoClassifier(nn.Module):
    def __init__(self, patch_dim=48, dim=32, depth=2, num_classes=7):
        super().__init__()
        self.embed = nn.Linear(patch_dim, dim)
        self.blocks = nn.ModuleList([MessengerAttention(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, num_classes)

    def forward(self, patches):
        b, n, t, _ = patches.shape
        x = self.embed(patches.flatten(0, 1))
        for blk in self.blocks:
            x = blk(x, b)
        return self.head(x.mean(dim=1).reshape(b, n, -1).mean(dim=1))
