import copy

import torch
import torch.nn as nn


class ConvNet(nn.Module):
    def __init__(self, num_classes=5, width=16, drop=0.2):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1),
            nn.BatchNorm2d(width),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(width, width * 2, 3, padding=1),
            nn.BatchNorm2d(width * 2),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1),
        )
        self.drop = nn.Dropout(drop)
        self.fc = nn.Linear(width * 2, num_classes)

    def forward(self, x):
        h = self.features(x).flatten(1)
        return self.fc(self.drop(h))


class ModelEMA:
    def __init__(self, model, decay=0.99):
        self.module = copy.deepcopy(model)
        self.module.train()
        for p in self.module.parameters():
            p.requires_grad_(False)
        self.decay = decay
        self.updates = 0

    @torch.no_grad()
    def update(self, model):
        self.updates += 1
        d = min(self.decay, (1 + self.updates) / (10 + self.updates))
        msd = model.state_dict()
        for k, v in self.module.state_dict().items():
            if v.dtype.is_floating_point:
                v.mul_(d).add_(msd[k].detach(), alpha=1 - d)
            else:
                v.copy_(msd[k])
