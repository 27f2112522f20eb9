import torch.nn.functional as F
from torch import nn


class VGGSmall(nn.Module):
    cfg = [16, "M", 32, "M", 32]

    def __init__(self, num_classes=10):
        super().__init__()
        layers, in_ch = [], 3
        for v in self.cfg:
            if v == "M":
                layers.append(nn.MaxPool2d(2))
            else:
                layers += [nn.Conv2d(in_ch, v, 3, padding=1, bias=False), nn.BatchNorm2d(v), nn.ReLU(inplace=True)]
                in_ch = v
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(in_ch, num_classes)

    def forward(self, x):
        x = self.features(x)
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.classifier(x)
