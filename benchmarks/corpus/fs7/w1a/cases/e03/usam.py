import torch
import torch.nn as nn
import torch.nn.functional as F


def polish_border(att):
    att[:, :, :, 0] = 0
    att[:, :, :, -1] = 0
    att[:, :, 0, :] = 0
    att[:, :, -1, :] = 0
    return att


class USAM(nn.Module):
    def __init__(self, channels, polish=False):
        super().__init__()
        self.polish = polish
        self.reduce = nn.Conv2d(channels, 16, 1, bias=False)
        self.bn = nn.BatchNorm2d(16)
        self.score = nn.Conv2d(16, 1, 3, padding=1)

    def forward(self, x):
        y = self.bn(self.reduce(x))
        diff = y - F.avg_pool2d(y, 3, stride=1, padding=1)
        att = F.relu(self.score(diff))
        if self.polish:
            att = polish_border(att)
        return x * att + x, att
