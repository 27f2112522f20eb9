import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, ch, temb_ch, cond_ch):
        super().__init__()
        self.norm1 = nn.GroupNorm(4, ch)
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.temb = nn.Linear(temb_ch, ch)
        self.cond = nn.Linear(cond_ch, ch)
        self.norm2 = nn.GroupNorm(4, ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x, temb, cond):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.temb(temb)[:, :, None, None] + self.cond(cond)[:, :, None, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return x + h


class TinyUNet(nn.Module):
    def __init__(self, in_ch=4, ch=32, cond_ch=16, temb_ch=32):
        super().__init__()
        self.temb_ch = temb_ch
        self.time_mlp = nn.Sequential(nn.Linear(temb_ch, temb_ch), nn.SiLU(), nn.Linear(temb_ch, temb_ch))
        self.conv_in = nn.Conv2d(in_ch, ch, 3, padding=1)
        self.down = ResBlock(ch, temb_ch, cond_ch)
        self.mid = ResBlock(ch, temb_ch, cond_ch)
        self.up = ResBlock(ch, temb_ch, cond_ch)
        self.conv_out = nn.Conv2d(ch, in_ch, 3, padding=1)

    def forward(self, latents, timesteps, encoder_hidden_states):
        temb = self.time_mlp(timestep_embedding(timesteps, self.temb_ch))
        cond = encoder_hidden_states.mean(dim=1)
        h = self.conv_in(latents)
        h = self.down(h, temb, cond)
        h = self.mid(h, temb, cond)
        h = self.up(h, temb, cond)
        return self.conv_out(h)


class DDPMScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        self.num_train_timesteps = num_train_timesteps
        betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    def add_noise(self, original, noise, timesteps):
        a = self.alphas_cumprod[timesteps].sqrt()[:, None, None, None]
        s = (1.0 - self.alphas_cumprod[timesteps]).sqrt()[:, None, None, None]
        return a * original + s * noise
