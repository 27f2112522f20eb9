import torch
import torch.nn as nn


class BondMessagePassing(nn.Module):
    def __init__(self, d_v, d_h, depth):
        super().__init__()
        self.W_i = nn.Linear(d_v, d_h, bias=False)
        self.W_h = nn.Linear(d_h, d_h, bias=False)
        self.W_o = nn.Linear(d_v + d_h, d_h)
        self.depth = depth

    def forward(self, V, A):
        H0 = self.W_i(V)
        H = torch.relu(H0)
        for _ in range(1, self.depth):
            M = A @ H
            H = torch.relu(H0 + self.W_h(M))
        M = A @ H
        return torch.relu(self.W_o(torch.cat([V, M], dim=-1)))


class MeanAggregation(nn.Module):
    def forward(self, H, mask):
        return (H * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)


class RegressionFFN(nn.Module):
    def __init__(self, d_in, hidden, n_tasks, dropout):
        super().__init__()
        self.ffn = nn.Sequential(
            nn.Dropout(dropout), nn.Linear(d_in, hidden), nn.ReLU(),
            nn.Dropout(dropout), nn.Linear(hidden, n_tasks),
        )

    def forward(self, Z):
        return self.ffn(Z)


class MPNN(nn.Module):
    def __init__(self, d_v=16, d_h=64, depth=3, ffn_hidden=64, n_tasks=1, dropout=0.0):
        super().__init__()
        self.message_passing = BondMessagePassing(d_v, d_h, depth)
        self.agg = MeanAggregation()
        self.bn = nn.BatchNorm1d(d_h)
        self.predictor = RegressionFFN(d_h, ffn_hidden, n_tasks, dropout)

    def fingerprint(self, V, A, mask):
        H = self.message_passing(V, A)
        return self.bn(self.agg(H, mask))

    def forward(self, V, A, mask):
        return self.predictor(self.fingerprint(V, A, mask))
