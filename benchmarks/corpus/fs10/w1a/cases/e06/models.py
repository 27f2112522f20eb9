import compat  # noqa: F401
import torch.nn as nn
from torchvision.models import googlenet


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def small_cnn(num_classes):
    return SmallCNN(num_classes)


def googlenet_comp(num_classes):
    return googlenet(weights=None, num_classes=num_classes, aux_logits=True, init_weights=True)


MODELS = {"small_cnn": small_cnn, "googlenet_comp": googlenet_comp}


def build_model(name, num_classes):
    return MODELS[name](num_classes)
