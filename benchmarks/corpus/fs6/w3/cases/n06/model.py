import torch.nn as nn

from functions import BoundedReLU, ReverseLayerF


class FeatureExtractor(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.bn1 = nn.BatchNorm1d(hidden)
        self.fc2 = nn.Linear(hidden, hidden)

    def forward(self, x):
        x = BoundedReLU.apply(self.bn1(self.fc1(x)), 6.0)
        return BoundedReLU.apply(self.fc2(x), 6.0)


class DANN(nn.Module):
    def __init__(self, in_dim=20, hidden=48, n_classes=3):
        super().__init__()
        self.feature = FeatureExtractor(in_dim, hidden)
        self.class_classifier = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(True), nn.Linear(hidden, n_classes))
        self.domain_classifier = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(True), nn.Linear(hidden, 2))

    def forward(self, input_data, alpha):
        feature = self.feature(input_data)
        reverse_feature = ReverseLayerF.apply(feature, alpha)
        class_output = self.class_classifier(feature)
        domain_output = self.domain_classifier(reverse_feature)
        return class_output, domain_output
