import torch
import torch.nn as nn
import torch.nn.functional as F


class DepthNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc1 = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.enc2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.dec = nn.Conv2d(32, 1, 3, padding=1)

    def forward(self, img):
        h = F.elu(self.enc1(img))
        h = F.elu(self.enc2(h))
        disp = torch.sigmoid(self.dec(h))
        return F.interpolate(disp, size=img.shape[-2:], mode="bilinear", align_corners=False)
