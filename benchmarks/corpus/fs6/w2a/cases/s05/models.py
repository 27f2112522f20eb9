import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, hidden, heads=4, layers=2):
        super().__init__()
        self.embed = nn.Linear(2, hidden)
        layer = nn.TransformerEncoderLayer(hidden, heads, 2 * hidden, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, layers)

    def forward(self, coords):
        return self.enc(self.embed(coords))


class Decoder(nn.Module):
    def __init__(self, hidden, clip=10.0):
        super().__init__()
        self.query = nn.Linear(2 * hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.v = nn.Parameter(torch.randn(hidden) / hidden ** 0.5)
        self.clip = clip

    def forward(self, enc, greedy=False):
        b, n, h = enc.shape
        mask = torch.zeros(b, n, dtype=torch.bool)
        idx = torch.zeros(b, dtype=torch.long)
        first = enc[torch.arange(b), idx]
        last = first
        mask[torch.arange(b), idx] = True
        tour, log_probs = [idx], []
        keys = self.key(enc)
        for _ in range(n - 1):
            q = self.query(torch.cat([first, last], dim=-1)).unsqueeze(1)
            logits = self.clip * torch.tanh((torch.tanh(keys + q) * self.v).sum(-1))
            logits = logits.masked_fill(mask, float("-inf"))
            dist = torch.distributions.Categorical(logits=logits)
            idx = logits.argmax(-1) if greedy else dist.sample()
            log_probs.append(dist.log_prob(idx))
            tour.append(idx)
            mask = mask.clone()
            mask[torch.arange(b), idx] = True
            last = enc[torch.arange(b), idx]
        return torch.stack(tour, 1), torch.stack(log_probs, 1).sum(1)


class Actor(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.encoder = Encoder(hidden)
        self.decoder = Decoder(hidden)

    def forward(self, coords):
        return self.decoder(self.encoder(coords))


class Critic(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.encoder = Encoder(hidden, layers=1)
        self.head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, coords):
        return self.head(self.encoder(coords).mean(1)).squeeze(-1)
