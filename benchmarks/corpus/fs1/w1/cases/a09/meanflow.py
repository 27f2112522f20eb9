from functools import partial

import numpy as np
import torch


def stopgrad(x):
    return x.detach()


def adaptive_l2_loss(error, gamma=0.5, c=1e-3):
    delta_sq = torch.mean(error ** 2, dim=(1, 2, 3))
    w = 1.0 / (delta_sq + c).pow(1.0 - gamma)
    return (stopgrad(w) * delta_sq).mean()


class MeanFlow:
    def __init__(self, num_classes=10, time_dist=("lognorm", -0.4, 1.0), flow_ratio=0.5):
        self.num_classes = num_classes
        self.time_dist = time_dist
        self.flow_ratio = flow_ratio

    def sample_t_r(self, batch_size, device):
        mu, sigma = self.time_dist[1], self.time_dist[2]
        samples = 1 / (1 + np.exp(-(np.random.randn(batch_size, 2) * sigma + mu)))
        t_np = np.maximum(samples[:, 0], samples[:, 1]).astype(np.float32)
        r_np = np.minimum(samples[:, 0], samples[:, 1]).astype(np.float32)
        same = np.random.rand(batch_size) < self.flow_ratio
        r_np = np.where(same, t_np, r_np)
        return torch.tensor(t_np, device=device), torch.tensor(r_np, device=device)

    def loss(self, model, x, c):
        t, r = self.sample_t_r(x.shape[0], x.device)
        t_ = t.view(-1, 1, 1, 1)
        r_ = r.view(-1, 1, 1, 1)
        e = torch.randn_like(x)
        x = x * 2 - 1
        z = (1 - t_) * x + t_ * e
        v = e - x

        model_partial = partial(model, y=c)
        with torch.no_grad():
            _, dudt = torch.autograd.functional.jvp(
                model_partial, (z, t, r), (v, torch.ones_like(t), torch.zeros_like(r)),
                create_graph=False)

        u = model(z, t, r, y=c)
        u_tgt = v - (t_ - r_) * dudt
        return adaptive_l2_loss(u - stopgrad(u_tgt))
