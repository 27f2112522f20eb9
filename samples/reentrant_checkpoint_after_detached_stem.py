"""An experiment config freezes the stem with `.detach()` and checkpoints every stage with the
reentrant variant its config selects: the first checkpointed stage gets an input that requires
no grad, so nothing after it has a graph."""
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

CONFIG = {"dim": 8, "freeze_stem": True, "checkpoint_use_reentrant": True}


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.stem = nn.Linear(cfg["dim"], cfg["dim"])
        self.stages = nn.ModuleList(nn.Linear(cfg["dim"], cfg["dim"]) for _ in range(2))
        self.freeze_stem = cfg["freeze_stem"]
        self.use_reentrant = cfg["checkpoint_use_reentrant"]

    def forward(self, x):
        x = self.stem(x)
        if self.freeze_stem:
            x = x.detach()
        for stage in self.stages:
            x = checkpoint(stage, x, use_reentrant=self.use_reentrant)
        return x


torch.manual_seed(0)
model = Encoder(CONFIG)
model(torch.randn(4, 8)).pow(2).mean().backward()
