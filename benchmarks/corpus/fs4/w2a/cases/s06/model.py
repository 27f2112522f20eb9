import torch.nn as nn


class SensorNet(nn.Module):
    def __init__(self, in_features=12, hidden=32, num_classes=3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Linear(in_features, hidden),
            nn.BatchNorm1d(hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.BatchNorm1d(hidden),
            nn.ReLU(),
        )
        self.classifier = nn.Linear(hidden, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x))
