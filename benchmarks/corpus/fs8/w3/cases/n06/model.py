import torch.nn as nn

from functions import GradientReversal


class DANN(nn.Module):
    def __init__(self, in_dim=20, feat_dim=32, num_classes=4):
        super().__init__()
        self.feature = nn.Sequential(
            nn.Linear(in_dim, 64),
            nn.BatchNorm1d(64),
            nn.ReLU(True),
            nn.Dropout(0.1),
            nn.Linear(64, feat_dim),
            nn.ReLU(True),
        )
        self.class_classifier = nn.Sequential(nn.Linear(feat_dim, 32), nn.ReLU(True), nn.Linear(32, num_classes))
        self.grl = GradientReversal()
        self.domain_classifier = nn.Sequential(nn.Linear(feat_dim, 32), nn.ReLU(True), nn.Linear(32, 2))

    def forward(self, x):
        feature = self.feature(x)
        class_output = self.class_classifier(feature)
        domain_output = self.domain_classifier(self.grl(feature))
        return class_output, domain_output
