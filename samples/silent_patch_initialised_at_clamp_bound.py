"""An adversarial patch, initialised as the config says ("zeros"), is mapped to the image range
with hardtanh(p, 0, 1): at its lower bound hardtanh passes no gradient, so the patch never moves."""
import torch
import torch.nn.functional as F
from torch import nn

CONFIG = {"patch_init": "zeros", "steps": 3}


class Patch(nn.Module):
    def __init__(self, init):
        super().__init__()
        if init == "zeros":
            data = torch.zeros(3, 4, 4)
        else:
            data = torch.rand(3, 4, 4)
        self.patch = nn.Parameter(data)

    def forward(self, images):
        out = images.clone()
        out[:, :, :4, :4] = F.hardtanh(self.patch, 0.0, 1.0)
        return out


torch.manual_seed(0)
victim = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 5)).requires_grad_(False)
patch = Patch(CONFIG["patch_init"])
optimizer = torch.optim.Adam(patch.parameters(), lr=0.05)
for step in range(CONFIG["steps"]):
    loss = F.cross_entropy(victim(patch(torch.rand(4, 3, 8, 8))), torch.full((4,), 2))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
