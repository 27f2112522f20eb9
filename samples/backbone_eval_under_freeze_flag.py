"""Transfer learning: with `freeze_backbone` set, the backbone is only put in eval mode. That
changes how its batch norm computes; it freezes nothing, and the optimizer, given every
parameter, trains the backbone too."""
import torch
from torch import nn


class TransferNet(nn.Module):
    def __init__(self, classes=4, freeze_backbone=True):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                                      nn.Flatten())
        if freeze_backbone:
            self.backbone.eval()
        self.classifier = nn.Linear(8, classes)

    def forward(self, x):
        return self.classifier(self.backbone(x))


torch.manual_seed(0)
net = TransferNet()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
for step in range(3):
    x, y = torch.randn(4, 3, 12, 12), torch.randint(0, 4, (4,))
    loss = nn.functional.cross_entropy(net(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
