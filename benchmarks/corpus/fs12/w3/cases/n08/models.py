import torch.nn as nn

from functions import MemoryEfficientSwish, ReverseLayerF


class FeatureExtractor(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, hidden),
            nn.BatchNorm1d(hidden),
            MemoryEfficientSwish(),
            nn.Linear(hidden, hidden),
            nn.BatchNorm1d(hidden),
            MemoryEfficientSwish(),
        )

    def forward(self, x):
        return self.net(x)


class DANN(nn.Module):
    def __init__(self, in_dim=16, hidden=64, n_classes=4):
        super().__init__()
        self.feature = FeatureExtractor(in_dim, hidden)
        self.class_classifier = nn.Sequential(
            nn.Linear(hidden, hidden), MemoryEfficientSwish(), nn.Linear(hidden, n_classes))
        self.domain_classifier = nn.Sequential(
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, x, alpha):
        feature = self.feature(x)
        class_output = self.class_classifier(feature)
        reverse_feature = ReverseLayerF.apply(feature, alpha)
        domain_output = self.domain_classifier(reverse_feature)
        return class_output, domain_output
