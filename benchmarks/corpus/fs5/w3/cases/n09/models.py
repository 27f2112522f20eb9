import torch.nn as nn

from functions import grad_reverse


class FeatureExtractor(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.ReLU(inplace=True),
            nn.Linear(hidden, hidden), nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.net(x)


class DANN(nn.Module):
    def __init__(self, in_dim=20, hidden=48, num_classes=4):
        super().__init__()
        self.features = FeatureExtractor(in_dim, hidden)
        self.label_clf = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, num_classes))
        self.domain_clf = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x, alpha=1.0):
        f = self.features(x)
        class_logits = self.label_clf(f)
        domain_logits = self.domain_clf(grad_reverse(f, alpha)).squeeze(1)
        return class_logits, domain_logits
