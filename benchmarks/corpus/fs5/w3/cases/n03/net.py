import copy

import torch
import torch.nn as nn


class ConvNet(nn.Module):
    def __init__(self, num_classes=5, width=16, dropout=0.2):
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
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(width * 2, num_classes)

    def forward(self, x):
        h = self.features(x).flatten(1)
        return self.fc(self.drop(h))


class EMATeacher:
    def __init__(self, student, decay=0.99):
        self.model = copy.deepcopy(student)
        for p in self.model.parameters():
            p.requires_grad_(False)
        self.decay = decay

    @torch.no_grad()
    def update(self, student, step):
        d = min(self.decay, (step + 1) / (step + 10))
        for t, s in zip(self.model.parameters(), student.parameters()):
            t.mul_(d).add_(s.detach(), alpha=1 - d)
        for tb, sb in zip(self.model.buffers(), student.buffers()):
            tb.copy_(sb)

    def __call__(self, x):
        return self.model(x)
