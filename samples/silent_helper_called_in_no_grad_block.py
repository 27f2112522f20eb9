"""A consistency loss maps the student's prediction through the EMA teacher with a helper that
the rest of the loss also uses; the mapping of the prediction was put in the same no_grad block
as the target's, so that term trains nothing."""
import copy

import torch
from torch import nn


class Consistency(nn.Module):
    def __init__(self):
        super().__init__()
        self.student = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 6))
        self.teacher = copy.deepcopy(self.student).requires_grad_(False)

    def denoise(self, net, x, t):
        return t * x + (1 - t) * net(x)

    def losses(self, x):
        t = torch.rand(x.shape[0], 1)
        pred = self.denoise(self.student, x + t * torch.randn_like(x), t)
        with torch.no_grad():
            target = self.denoise(self.teacher, x, t)
            pred_mapped = self.denoise(self.teacher, pred, t * 0.5)
            target_mapped = self.denoise(self.teacher, target, t * 0.5)
        consistency = (pred_mapped - target_mapped).pow(2).mean()
        reconstruction = (self.denoise(self.student, x, t) - x).pow(2).mean()
        return consistency, reconstruction


torch.manual_seed(0)
model = Consistency()
optimizer = torch.optim.Adam(model.student.parameters(), lr=1e-3)
for step in range(3):
    consistency, reconstruction = model.losses(torch.randn(8, 6))
    loss = consistency + reconstruction
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
