from torch import nn


class Regressor(nn.Module):
    def __init__(self, in_features, hidden=(128, 64), dropout=0.0):
        super().__init__()
        layers = []
        prev = in_features
        for h in hidden:
            layers += [nn.Linear(prev, h), nn.GELU(), nn.Dropout(dropout)]
            prev = h
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(prev, 1)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)
