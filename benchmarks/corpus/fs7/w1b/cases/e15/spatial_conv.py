import math

import torch
from torch import nn
from torch.nn import functional as F


class SpatialConv(nn.Module):
    # SCNN message passing: down, up, right, left

    def __init__(self, num_channels=128, inplace=False):
        super().__init__()
        self.inplace = inplace
        self.conv_d = nn.Conv2d(num_channels, num_channels, (1, 9), padding=(0, 4))
        self.conv_u = nn.Conv2d(num_channels, num_channels, (1, 9), padding=(0, 4))
        self.conv_r = nn.Conv2d(num_channels, num_channels, (9, 1), padding=(4, 0))
        self.conv_l = nn.Conv2d(num_channels, num_channels, (9, 1), padding=(4, 0))
        self._adjust_initializations(num_channels=num_channels)

    def _adjust_initializations(self, num_channels=128):
        bound = math.sqrt(2.0 / (num_channels * 9 * 5))
        for conv in (self.conv_d, self.conv_u, self.conv_r, self.conv_l):
            nn.init.uniform_(conv.weight, -bound, bound)

    def non_inplace_forward(self, x):
        h, w = x.shape[2], x.shape[3]
        rows = [x[:, :, i:i + 1] for i in range(h)]
        for i in range(1, h):
            rows[i] = rows[i] + F.relu(self.conv_d(rows[i - 1]))
        for i in range(h - 2, 0, -1):
            rows[i] = rows[i] + F.relu(self.conv_u(rows[i + 1]))
        x = torch.cat(rows, dim=2)
        cols = [x[:, :, :, j:j + 1] for j in range(w)]
        for j in range(1, w):
            cols[j] = cols[j] + F.relu(self.conv_r(cols[j - 1]))
        for j in range(w - 2, 0, -1):
            cols[j] = cols[j] + F.relu(self.conv_l(cols[j + 1]))
        return torch.cat(cols, dim=3)

    def forward(self, input):
        if not self.inplace:
            return self.non_inplace_forward(input)
        output = input
        for i in range(1, output.shape[2]):
            output[:, :, i:i + 1, :].add_(F.relu(self.conv_d(output[:, :, i - 1:i, :])))
        for i in range(output.shape[2] - 2, 0, -1):
            output[:, :, i:i + 1, :].add_(F.relu(self.conv_u(output[:, :, i + 1:i + 2, :])))
        for i in range(1, output.shape[3]):
            output[:, :, :, i:i + 1].add_(F.relu(self.conv_r(output[:, :, :, i - 1:i])))
        for i in range(output.shape[3] - 2, 0, -1):
            output[:, :, :, i:i + 1].add_(F.relu(self.conv_l(output[:, :, :, i + 1:i + 2])))
        return output
