import torch.nn as nn


class MLPClassifier(nn.Module):
    def __init__(self, in_dim=16, hidden=64, n_classes=4, p_drop=0.3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p_drop),
            nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p_drop),
        )
        self.cls = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.cls(self.body(x))
