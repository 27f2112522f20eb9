import compat  # noqa: F401
import torch
from torch import nn
from torchvision.models import mobilenet_v2
import torch.nn.functional as F


class CropScorer(nn.Module):
    def __init__(self, reduced_dim=16, align_size=3):
        super().__init__()
        backbone = mobilenet_v2(weights=None, width_mult=0.35)
        self.features = backbone.features[:7]
        self.reduction = nn.Sequential(nn.Conv2d(16, reduced_dim, 1), nn.BatchNorm2d(reduced_dim), nn.ReLU(inplace=True))
        self.align_size = align_size
        self.fc = nn.Sequential(
            nn.Flatten(),
            nn.Linear(reduced_dim * align_size * align_size, 64),
            nn.ReLU(inplace=True),
            nn.Dropout(0.5),
            nn.Linear(64, 1),
        )

    def align(self, fmap, boxes, scale):
        idx = boxes[:, 0].long()
        size = fmap.shape[-1]
        x0, y0, x1, y1 = (boxes[:, 1:] * scale / size * 2 - 1).unbind(-1)
        theta = torch.zeros(boxes.shape[0], 2, 3)
        theta[:, 0, 0] = (x1 - x0) / 2
        theta[:, 0, 2] = (x1 + x0) / 2
        theta[:, 1, 1] = (y1 - y0) / 2
        theta[:, 1, 2] = (y1 + y0) / 2
        grid = F.affine_grid(theta, [boxes.shape[0], fmap.shape[1], self.align_size, self.align_size], align_corners=False)
        return F.grid_sample(fmap[idx], grid, align_corners=False)

    def forward(self, im, boxes):
        fmap = self.reduction(self.features(im))
        scale = fmap.shape[-1] / im.shape[-1]
        rois = self.align(fmap, boxes, scale)
        return self.fc(rois).squeeze(-1)


def build_crop_model(cfg):
    return CropScorer(reduced_dim=cfg["reduced_dim"], align_size=cfg["align_size"])
