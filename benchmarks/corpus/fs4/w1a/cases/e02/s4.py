import math

import torch
import torch.nn as nn


class DiagKernel(nn.Module):
    """Diagonal state-space convolution kernel (S4D-Lin style)."""

    def __init__(self, d_model, d_state=16, dt_min=1e-3, dt_max=1e-1):
        super().__init__()
        log_dt = torch.rand(d_model) * (math.log(dt_max) - math.log(dt_min)) + math.log(dt_min)
        self.register_buffer("log_dt", log_dt)
        self.register_buffer("A_real", 0.5 * torch.ones(d_model, d_state // 2))
        self.register_buffer("A_imag", math.pi * torch.arange(d_state // 2).float().repeat(d_model, 1))
        self.C = nn.Parameter(torch.randn(d_model, d_state // 2, 2) * 0.5)
        self._cache = {}

    def _vandermonde(self, L):
        if L not in self._cache:
            dt = self.log_dt.exp().unsqueeze(-1)
            dtA = torch.complex(-self.A_real, self.A_imag) * dt
            pos = torch.arange(L, device=dtA.device)
            self._cache[L] = (dtA.unsqueeze(-1) * pos).exp(), dtA
        return self._cache[L]

    def forward(self, L):
        V, dtA = self._vandermonde(L)
        C = torch.view_as_complex(self.C) * (dtA.exp() - 1.0) / torch.complex(-self.A_real, self.A_imag)
        k = 2 * torch.einsum("hn,hnl->hl", C, V).real
        return k


class S4DLayer(nn.Module):
    def __init__(self, d_model, d_state=16, dropout=0.0):
        super().__init__()
        self.kernel = DiagKernel(d_model, d_state)
        self.D = nn.Parameter(torch.randn(d_model))
        self.out = nn.Sequential(nn.GELU(), nn.Dropout(dropout), nn.Linear(d_model, d_model))

    def forward(self, u):
        # u: (B, L, H)
        L = u.size(1)
        k = self.kernel(L)
        u_t = u.transpose(1, 2)
        k_f = torch.fft.rfft(k, n=2 * L)
        u_f = torch.fft.rfft(u_t, n=2 * L)
        y = torch.fft.irfft(u_f * k_f, n=2 * L)[..., :L]
        y = y + u_t * self.D.unsqueeze(-1)
        return self.out(y.transpose(1, 2))
