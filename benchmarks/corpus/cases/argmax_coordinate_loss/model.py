import torch.nn as nn


class CoordNet(nn.Module):
    """Predicts, for every pixel, a classification over `bins` for each of x, y, z."""

    def __init__(self, bins=16):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
        )
        self.head_x = nn.Conv2d(16, bins, 1)
        self.head_y = nn.Conv2d(16, bins, 1)
        self.head_z = nn.Conv2d(16, bins, 1)

    def forward(self, img):
        f = self.backbone(img)
        return self.head_x(f), self.head_y(f), self.head_z(f)
