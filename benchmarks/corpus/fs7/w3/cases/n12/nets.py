import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.GroupNorm(4, cout), nn.ReLU(inplace=True))

    def forward(self, x):
        return self.body(x)


class SharedTrunk(nn.Module):
    def __init__(self, channels=(3, 16, 32, 32), use_checkpoint=True):
        super().__init__()
        self.blocks = nn.ModuleList([ConvBlock(a, b) for a, b in zip(channels[:-1], channels[1:])])
        self.use_checkpoint = use_checkpoint

    def forward(self, x):
        for blk in self.blocks:
            if self.use_checkpoint and self.training:
                x = checkpoint(blk, x, use_reentrant=False)
            else:
                x = blk(x)
        return x


class MultiTaskNet(nn.Module):
    def __init__(self, num_classes=4, use_checkpoint=True):
        super().__init__()
        self.trunk = SharedTrunk(use_checkpoint=use_checkpoint)
        self.seg_head = nn.Conv2d(32, num_classes, 1)
        self.depth_head = nn.Sequential(nn.Conv2d(32, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1))
        self.feature_grad_norms = []

    def _record_grad(self, grad):
        self.feature_grad_norms.append(grad.detach().norm().item())

    def forward(self, x):
        feats = self.trunk(x)
        if feats.requires_grad:
            feats.register_hook(self._record_grad)
        return {"seg": self.seg_head(feats), "depth": self.depth_head(feats)}
