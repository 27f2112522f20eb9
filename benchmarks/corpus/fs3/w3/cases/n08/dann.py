import torch.nn as nn

from functional import GradientReversal


class FeatureExtractor(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())

    def forward(self, x):
        return self.net(x)


class DANN(nn.Module):
    def __init__(self, in_dim=20, hidden=32, num_classes=4, alpha=1.0):
        super().__init__()
        self.features = FeatureExtractor(in_dim, hidden)
        self.label_classifier = nn.Linear(hidden, num_classes)
        self.discriminator = nn.Sequential(
            GradientReversal(alpha=alpha),
            nn.Linear(hidden, hidden // 2), nn.ReLU(),
            nn.Linear(hidden // 2, 1),
        )

    def forward(self, x):
        f = self.features(x)
        return f, self.label_classifier(f), self.discriminator(f).squeeze(1)
