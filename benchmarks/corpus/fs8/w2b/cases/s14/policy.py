import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from networks import ConditionalMLP


def huber_loss(pred, target, delta):
    return F.huber_loss(pred, target, delta=delta)


class CTMPolicy(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.model = ConditionalMLP(cfg["act_dim"], cfg["horizon"], cfg["obs_dim"])
        self.model_ema = copy.deepcopy(self.model)
        self.model_ema.requires_grad_(False)
        self.losses = cfg["losses"]
        self.t_min, self.t_max = cfg["t_min"], cfg["t_max"]

    def _forward(self, net, traj, t, s, cond):
        c_skip = (s / t).clamp(max=1.0)[:, None, None]
        return c_skip * traj + (1 - c_skip) * net(traj, t, s, cond)

    @torch.no_grad()
    def update_ema(self, decay):
        for p_ema, p in zip(self.model_ema.parameters(), self.model.parameters()):
            p_ema.lerp_(p, 1.0 - decay)

    def compute_loss(self, obs, trajectory):
        b = trajectory.shape[0]
        noise = torch.randn_like(trajectory)
        times = torch.rand(b) * (self.t_max - self.t_min) + self.t_min
        stops = times * torch.rand(b)
        u_times = stops + (times - stops) * torch.rand(b)
        noise_traj = trajectory + times[:, None, None] * noise
        u_noise_traj = trajectory + u_times[:, None, None] * noise

        total = {}
        pred = self._forward(self.model, noise_traj, times, stops, obs)
        with torch.no_grad():
            target = self._forward(self.model_ema, u_noise_traj, u_times, stops, obs)

        with torch.no_grad():
            start = torch.full_like(times, self.t_min)
            pred = self._forward(self.model_ema, pred, stops, start, obs)
            target = self._forward(self.model_ema, target, stops, start, obs)
        total["ctm"] = huber_loss(pred, target, self.cfg["delta"]) * self.losses["ctm"]

        denoised = self._forward(self.model, noise_traj, times, torch.full_like(times, self.t_min), obs)
        total["dsm"] = F.mse_loss(denoised, trajectory) * self.losses["dsm"]
        return total
