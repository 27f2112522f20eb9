import math

import torch
import torch.nn as nn


class TimeEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(1000.0) * torch.arange(half) / half)
        args = t[:, None] * freqs[None, :]
        return torch.cat([args.sin(), args.cos()], dim=-1)


class ConditionalMLP(nn.Module):
    def __init__(self, act_dim, horizon, cond_dim, hidden=128):
        super().__init__()
        self.act_dim, self.horizon = act_dim, horizon
        self.t_emb = TimeEmbedding(32)
        self.s_emb = TimeEmbedding(32)
        self.net = nn.Sequential(
            nn.Linear(act_dim * horizon + 64 + cond_dim, hidden),
            nn.Mish(),
            nn.Linear(hidden, hidden),
            nn.Mish(),
            nn.Linear(hidden, act_dim * horizon),
        )

    def forward(self, traj, t, s, cond):
        h = torch.cat([traj.flatten(1), self.t_emb(t), self.s_emb(s), cond], dim=-1)
        return self.net(h).view(-1, self.horizon, self.act_dim)
