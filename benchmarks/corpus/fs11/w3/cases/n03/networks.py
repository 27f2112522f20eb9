import copy

import torch
import torch.nn as nn


class ConvNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


class EMATeacher:
    def __init__(self, student, decay=0.99):
        self.decay = decay
        self.model = copy.deepcopy(student)
        for p in self.model.parameters():
            p.requires_grad_(False)
        self.model.eval()

    @torch.no_grad()
    def update(self, student):
        for t, s in zip(self.model.parameters(), student.parameters()):
            t.mul_(self.decay).add_(s.detach(), alpha=1 - self.decay)
        for tb, sb in zip(self.model.buffers(), student.buffers()):
            tb.copy_(sb)

    @torch.no_grad()
    def __call__(self, x):
        return self.model(x)
