"""A Jacobian penalty computed with torch.func.vjp on a model whose normalization layer is chosen
by a config: "batch" builds a BatchNorm2d, which in train mode updates its running statistics
in place, and a torch.func transform refuses to mutate a captured tensor."""

import torch
from torch import nn
from torch.func import vjp

CONFIG = {"norm": "batch", "width": 8}
NORMS = {
    "batch": lambda c: nn.BatchNorm2d(c),
    "group": lambda c: nn.GroupNorm(2, c),
}


class Block(nn.Module):
    def __init__(self, cin, cout, norm):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.norm = NORMS[norm](cout)

    def forward(self, x):
        return torch.relu(self.norm(self.conv(x)))


def jacobian_penalty(model, x):
    out, pullback = vjp(model, x)
    (grad_x,) = pullback(torch.randn_like(out))
    return grad_x.pow(2).mean()


torch.manual_seed(0)
model = nn.Sequential(Block(3, CONFIG["width"], CONFIG["norm"]), nn.AdaptiveAvgPool2d(1), nn.Flatten())
model.train()
x = torch.randn(4, 3, 8, 8)
loss = model(x).pow(2).mean() + 0.1 * jacobian_penalty(model, x)
loss.backward()
