"""Gradient checkpointing, switched on by the config through the model's own method, runs its
blocks with reentrant checkpointing; the trainer takes the gradients with torch.autograd.grad."""
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

CONFIG = {"width": 8, "gradient_checkpointing": True}


class Encoder(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.blocks = nn.ModuleList(nn.Linear(width, width) for _ in range(2))
        self.checkpointing = False

    def enable_gradient_checkpointing(self):
        self.checkpointing = True

    def forward(self, x):
        for block in self.blocks:
            x = checkpoint(block, x, use_reentrant=True) if self.checkpointing else block(x)
        return x


def build_model(cfg):
    model = Encoder(cfg["width"])
    if cfg["gradient_checkpointing"]:
        model.enable_gradient_checkpointing()
    return model


torch.manual_seed(0)
model = build_model(CONFIG)
loss = model(torch.randn(4, 8, requires_grad=True)).pow(2).mean()
grads = torch.autograd.grad(loss, list(model.parameters()))
