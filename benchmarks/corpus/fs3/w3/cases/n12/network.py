import torch
import torch.nn as nn


class Body(nn.Module):
    def __init__(self, in_ch=3, width=16):
        super().__init__()
        self.stem = nn.Conv2d(in_ch, width, 3, padding=1)
        self.block = nn.Sequential(
            nn.Conv2d(width, width, 3, padding=1), nn.GroupNorm(4, width), nn.ReLU(),
            nn.Conv2d(width, width * 2, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.out_dim = width * 2

    def forward(self, x):
        return self.pool(self.block(torch.relu(self.stem(x)))).flatten(1)


class MultiHeadNet(nn.Module):
    def __init__(self, num_classes=10, num_attrs=4):
        super().__init__()
        self.body = Body()
        self.cls_head = nn.Linear(self.body.out_dim, num_classes)
        self.attr_head = nn.Linear(self.body.out_dim, num_attrs)

    def forward(self, x):
        h = self.body(x)
        return self.cls_head(h), self.attr_head(h)


def expand_input_channels(model, new_in_ch):
    old = model.body.stem
    new = nn.Conv2d(new_in_ch, old.out_channels, old.kernel_size, old.stride, old.padding)
    with torch.no_grad():
        new.weight.zero_()
        new.weight[:, : old.in_channels] = old.weight
        new.bias.copy_(old.bias)
    model.body.stem = new


def replace_classifier(model, num_classes):
    model.cls_head = nn.Linear(model.cls_head.in_features, num_classes)
