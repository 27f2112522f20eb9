import torch

from learn import Learn
from model import CRU

CFG = {"obs_dim": 3, "lsd": 16, "lr": 5e-3, "grad_clip": 1.0, "epochs": 2,
       "batch_size": 16, "seq_len": 12}


def pendulum_like(n, seq_len, obs_dim, g):
    times = torch.cumsum(torch.rand(n, seq_len, generator=g) * 0.5 + 0.05, dim=1)
    phase = torch.rand(n, 1, generator=g) * 6.28
    freq = torch.rand(n, 1, generator=g) + 0.5
    base = torch.sin(freq * times + phase)
    obs = torch.stack([base * (k + 1) for k in range(obs_dim)], dim=-1)
    obs = obs + 0.05 * torch.randn(obs.shape, generator=g)
    return obs, times


def batchify(obs, times, batch_size):
    return [(obs[i:i + batch_size], times[i:i + batch_size]) for i in range(0, obs.size(0), batch_size)]


torch.manual_seed(0)
g = torch.Generator().manual_seed(0)
train_obs, train_times = pendulum_like(64, CFG["seq_len"], CFG["obs_dim"], g)
valid_obs, valid_times = pendulum_like(32, CFG["seq_len"], CFG["obs_dim"], g)
model = CRU(CFG["obs_dim"], CFG["lsd"])
learner = Learn(model, CFG["lr"], CFG["grad_clip"])
learner.train(batchify(train_obs, train_times, CFG["batch_size"]),
              batchify(valid_obs, valid_times, CFG["batch_size"]), CFG["epochs"])
