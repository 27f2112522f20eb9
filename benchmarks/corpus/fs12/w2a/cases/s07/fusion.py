import torch
import torch.nn as nn


class CrossModalityFusion(nn.Module):
    def __init__(self, channels, grid=4, heads=4):
        super().__init__()
        self.grid = grid
        self.pool = nn.AdaptiveAvgPool2d(grid)
        self.pos_emb = nn.Parameter(torch.zeros(1, 2 * grid * grid, channels))
        self.norm = nn.LayerNorm(channels)
        self.attn = nn.MultiheadAttention(channels, heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(channels, channels * 2), nn.GELU(), nn.Linear(channels * 2, channels))

    def forward(self, rgb, ir):
        b, c, h, w = rgb.shape
        tokens = torch.cat([self.pool(rgb).flatten(2), self.pool(ir).flatten(2)], 2).transpose(1, 2)
        x = tokens + self.pos_emb
        y = self.norm(x)
        x = x + self.attn(y, y, y, need_weights=False)[0]
        x = x + self.mlp(self.norm(x))
        n = self.grid * self.grid
        rgb_out = x[:, :n].transpose(1, 2).reshape(b, c, self.grid, self.grid)
        ir_out = x[:, n:].transpose(1, 2).reshape(b, c, self.grid, self.grid)
        up = nn.functional.interpolate
        return rgb + up(rgb_out, size=(h, w), mode="bilinear"), ir + up(ir_out, size=(h, w), mode="bilinear")
