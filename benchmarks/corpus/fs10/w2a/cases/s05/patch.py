import torch
import torch.nn as nn
import torch.nn.functional as F


class AdversarialPatch(nn.Module):
    def __init__(self, size=8, init="zeros"):
        super().__init__()
        if init == "zeros":
            data = torch.zeros(3, size, size)
        elif init == "gray":
            data = torch.full((3, size, size), 0.5)
        else:
            data = torch.rand(3, size, size)
        self.patch = nn.Parameter(data)
        self.size = size

    def pixels(self):
        return F.hardtanh(self.patch, 0.0, 1.0)

    def forward(self, images, locations):
        out = images.clone()
        p = self.pixels()
        for i, (y, x) in enumerate(locations.tolist()):
            out[i, :, y:y + self.size, x:x + self.size] = p
        return out
