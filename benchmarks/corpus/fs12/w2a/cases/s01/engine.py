import torch
import torch.nn as nn


class PosteriorNet(nn.Module):
    def __init__(self, x_dim, theta_dim, hidden=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(x_dim, hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
        )
        self.mean = nn.Linear(hidden, theta_dim)
        self.log_std = nn.Linear(hidden, theta_dim)

    def forward(self, x):
        h = self.body(x)
        return self.mean(h), self.log_std(h).clamp(-5, 3)


class SequentialEngine:
    def __init__(self, simulator, prior, cfg):
        self.simulator = simulator
        self.prior = prior
        self.cfg = cfg
        self.net = PosteriorNet(cfg["x_dim"], cfg["theta_dim"], cfg["hidden"])
        self.init_state = self.net.state_dict()
        self.history = []

    def reset_network(self):
        self.net.load_state_dict(self.init_state)

    def _nll(self, theta, x):
        mu, log_std = self.net(x)
        z = (theta - mu) / log_std.exp()
        return (0.5 * z.pow(2) + log_std).sum(-1).mean()

    def train_round(self, theta, x):
        opt = torch.optim.Adam(self.net.parameters(), lr=self.cfg["lr"])
        n = theta.shape[0]
        bs = self.cfg["batch_size"]
        for epoch in range(self.cfg["epochs"]):
            perm = torch.randperm(n)
            total = 0.0
            for i in range(0, n, bs):
                idx = perm[i:i + bs]
                loss = self._nll(theta[idx], x[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
                total += loss.item() * len(idx)
            self.history.append(total / n)
        return self.history[-1]

    def propose(self, x_obs, n):
        with torch.no_grad():
            mu, log_std = self.net(x_obs.unsqueeze(0))
        return mu + log_std.exp() * torch.randn(n, mu.shape[-1])
