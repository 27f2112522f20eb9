import torch
import torch.nn as nn


class CRUCell(nn.Module):
    def __init__(self, obs_dim, lsd):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, lsd))
        self.log_decay = nn.Parameter(torch.zeros(lsd))
        self.transition = nn.Linear(lsd, lsd, bias=False)
        self.gain = nn.Linear(2 * lsd, lsd)

    def forward(self, obs, mean, dt):
        decay = torch.exp(-torch.exp(self.log_decay) * dt.unsqueeze(-1))
        prior = decay * mean + (1 - decay) * self.transition(mean)
        obs_latent = self.encoder(obs)
        k = torch.sigmoid(self.gain(torch.cat([prior, obs_latent], dim=-1)))
        return prior + k * (obs_latent - prior)


class CRU(nn.Module):
    def __init__(self, obs_dim, lsd=16):
        super().__init__()
        self.lsd = lsd
        self.cell = CRUCell(obs_dim, lsd)
        self.decoder_mean = nn.Linear(lsd, obs_dim)
        self.decoder_logvar = nn.Linear(lsd, obs_dim)

    def forward(self, obs_batch, time_points):
        b, t, _ = obs_batch.shape
        mean = obs_batch.new_zeros(b, self.lsd)
        dts = torch.diff(time_points, dim=1, prepend=time_points[:, :1])
        means, logvars = [], []
        for i in range(t):
            mean = self.cell(obs_batch[:, i], mean, dts[:, i])
            means.append(self.decoder_mean(mean))
            logvars.append(self.decoder_logvar(mean))
        return torch.stack(means, 1), torch.stack(logvars, 1)
