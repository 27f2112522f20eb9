import math

import torch


class SineTasks:
    def __init__(self, seed=0):
        self.g = torch.Generator().manual_seed(seed)

    def sample(self, k_shot=10):
        amp = torch.empty(1).uniform_(0.1, 5.0, generator=self.g)
        phase = torch.empty(1).uniform_(0.0, math.pi, generator=self.g)
        x = torch.empty(2 * k_shot, 1).uniform_(-5.0, 5.0, generator=self.g)
        y = amp * torch.sin(x + phase)
        return (x[:k_shot], y[:k_shot]), (x[k_shot:], y[k_shot:])
