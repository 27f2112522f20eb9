import torch.nn as nn


class FFNRegressor(nn.Module):
    def __init__(self, n_features, n_tasks, hidden=64, dropout=0.0):
        super().__init__()
        self.ffn = nn.Sequential(
            nn.Linear(n_features, hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_tasks),
        )

    def forward(self, x):
        return self.ffn(x)
