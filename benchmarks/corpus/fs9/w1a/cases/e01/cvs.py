import torch
from torch import nn

from feedforward import FeedForward


class TDALoss(nn.Module):
    """Targeted discriminant analysis: pull each state's CV distribution to a target."""

    def __init__(self, n_states, target_centers, target_sigmas, alpha=1.0, beta=100.0):
        super().__init__()
        self.n_states = n_states
        self.register_buffer("centers", torch.as_tensor(target_centers, dtype=torch.float32))
        self.register_buffer("sigmas", torch.as_tensor(target_sigmas, dtype=torch.float32))
        self.alpha = alpha
        self.beta = beta

    def forward(self, z, labels):
        loss_centers = z.new_zeros(())
        loss_sigmas = z.new_zeros(())
        for i in range(self.n_states):
            z_i = z[labels == i]
            mu = z_i.mean(0)
            sigma = z_i.std(0)
            loss_centers = loss_centers + ((mu - self.centers[i]) ** 2).sum()
            loss_sigmas = loss_sigmas + ((sigma - self.sigmas[i]) ** 2).sum()
        return self.alpha * loss_centers + self.beta * loss_sigmas


class DeepTDA(nn.Module):
    DEFAULT_BLOCKS = ("norm_in", "nn")

    def __init__(self, n_states, n_cvs, target_centers, target_sigmas, layers, options=None):
        super().__init__()
        options = dict(options or {})
        nn_options = dict(options.get("nn", {}))
        if layers[-1] != n_cvs:
            raise ValueError("last layer must have n_cvs outputs")
        self.register_buffer("in_mean", torch.zeros(layers[0]))
        self.register_buffer("in_std", torch.ones(layers[0]))
        self.nn = FeedForward(layers, **nn_options)
        self.loss_fn = TDALoss(n_states, target_centers, target_sigmas)

    def set_input_stats(self, x):
        self.in_mean.copy_(x.mean(0))
        self.in_std.copy_(x.std(0).clamp_min(1e-6))

    def forward(self, x):
        x = (x - self.in_mean) / self.in_std
        return self.nn(x)

    def training_step(self, batch):
        x, labels = batch
        z = self(x)
        return self.loss_fn(z, labels)
