import torch
import torch.nn as nn
import torch.nn.functional as F


class BranchNet(nn.Module):
    """Main branch with a residual shortcut, plus an auxiliary side branch."""

    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.conv1_p = nn.Conv2d(16, 16, 3, padding=1)
        self.shortcut = nn.Conv2d(3, 16, 1)
        self.bn = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16, num_classes)
        self.fc_aux = nn.Linear(16, num_classes)

    def forward(self, inp):
        x = self.conv1(inp)
        x_p = self.conv1_p(x)
        x += self.shortcut(inp)
        x = F.relu(self.bn(x))
        out = self.fc(x.mean(dim=(2, 3)))
        aux = self.fc_aux(x_p.mean(dim=(2, 3)))
        return out, aux
