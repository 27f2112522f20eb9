import compat  # noqa: F401
import timm
import torch.nn as nn


def create_student(num_classes, drop_rate=0.1):
    return timm.create_model("resnet10t", pretrained=False, num_classes=num_classes,
                             drop_rate=drop_rate)


class GaussianNoise(nn.Module):
    def __init__(self, std=0.1):
        super().__init__()
        self.std = std

    def forward(self, x):
        return x + self.std * x.new_empty(x.shape).normal_()
