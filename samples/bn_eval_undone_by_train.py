"""A segmentation model keeps its backbone's batch-norm statistics fixed by putting those layers
in eval mode in its constructor; the trainer's model.train() at each epoch puts them back in
train mode before any forward, so the statistics move with every training batch."""
import torch
from torch import nn


class Segmenter(nn.Module):
    def __init__(self, classes=3, fix_bn_stats=True):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                      nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.head = nn.Conv2d(8, classes, 1)
        if fix_bn_stats:
            self.fix_bn()

    def fix_bn(self):
        for layer in self.backbone.modules():
            if isinstance(layer, nn.BatchNorm2d):
                layer.eval()

    def forward(self, x):
        return self.head(self.backbone(x))


def train(model, epochs=2):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(epochs):
        model.train()
        for _ in range(2):
            image, mask = torch.randn(2, 3, 16, 16), torch.randint(0, 3, (2, 16, 16))
            loss = nn.functional.cross_entropy(model(image), mask)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


torch.manual_seed(0)
train(Segmenter())
