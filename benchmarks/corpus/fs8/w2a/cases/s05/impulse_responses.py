import math

import torch


def gabor_impulse_response(t, center, fwhm):
    denominator = 1.0 / (math.sqrt(2.0 * math.pi) * fwhm)
    gaussian = torch.exp(torch.tensordot(1.0 / (2.0 * fwhm ** 2), -(t ** 2), dims=0))
    phase = torch.tensordot(center, t, dims=0)
    real = denominator.unsqueeze(1) * torch.cos(phase) * gaussian
    imag = denominator.unsqueeze(1) * torch.sin(phase) * gaussian
    return real, imag


def gabor_filters(kernel, size=401):
    t = torch.arange(-(size // 2), (size + 1) // 2, dtype=kernel.dtype, device=kernel.device)
    return gabor_impulse_response(t, center=kernel[:, 0], fwhm=kernel[:, 1])


def gaussian_lowpass(sigma, filter_size):
    sigma = torch.clamp(sigma, 2.0 / filter_size, 0.5)
    t = torch.arange(0, filter_size, dtype=sigma.dtype, device=sigma.device)
    t = t.view(1, filter_size, 1, 1)
    numerator = t - 0.5 * (filter_size - 1)
    denominator = sigma * 0.5 * (filter_size - 1)
    return torch.exp(-0.5 * (numerator / denominator) ** 2)


def mel_init(n_filters, kernel_size, sample_rate=16000, min_freq=60.0, max_freq=7800.0):
    mels = torch.linspace(2595 * math.log10(1 + min_freq / 700), 2595 * math.log10(1 + max_freq / 700), n_filters)
    hz = 700 * (10 ** (mels / 2595) - 1)
    centers = 2 * math.pi * hz / sample_rate
    fwhms = torch.full((n_filters,), kernel_size / 4.0)
    return torch.stack([centers, fwhms], dim=1)
