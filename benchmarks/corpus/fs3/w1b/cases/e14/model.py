import torch.nn as nn


class ResBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, ch, 3, padding=1)
        )

    def forward(self, x):
        return x + 0.1 * self.body(x)


class MetaSR(nn.Module):
    def __init__(self, ch=16, n_blocks=2, scale=2):
        super().__init__()
        self.head = nn.Conv2d(3, ch, 3, padding=1)
        self.meta_block = nn.Sequential(*[ResBlock(ch) for _ in range(n_blocks)])
        self.tail = nn.Sequential(
            nn.Conv2d(ch, 3 * scale * scale, 3, padding=1), nn.PixelShuffle(scale)
        )
        self.upsample = nn.Upsample(scale_factor=scale, mode="bilinear", align_corners=False)

    def forward(self, x):
        feat = self.head(x)
        feat = self.meta_block(feat)
        return self.tail(feat) + self.upsample(x)
