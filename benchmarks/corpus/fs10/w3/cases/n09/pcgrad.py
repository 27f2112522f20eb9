import random

import torch


class PCGrad:
    def __init__(self, optimizer, shared_params):
        self.optimizer = optimizer
        self.shared = list(shared_params)

    def zero_grad(self):
        self.optimizer.zero_grad(set_to_none=True)

    def step(self):
        self.optimizer.step()

    def _flat_grads(self, loss):
        grads = torch.autograd.grad(loss, self.shared, retain_graph=True, allow_unused=True)
        return torch.cat([(g if g is not None else torch.zeros_like(p)).reshape(-1)
                          for g, p in zip(grads, self.shared)])

    def backward(self, task_losses):
        flat = [self._flat_grads(loss) for loss in task_losses]
        projected = [g.clone() for g in flat]
        for i, g_i in enumerate(projected):
            others = list(range(len(flat)))
            random.shuffle(others)
            for j in others:
                if j == i:
                    continue
                dot = torch.dot(g_i, flat[j])
                if dot < 0:
                    g_i -= dot / flat[j].pow(2).sum().clamp_min(1e-12) * flat[j]
        merged = torch.stack(projected).sum(0)
        sum(task_losses).backward()
        offset = 0
        for p in self.shared:
            n = p.numel()
            p.grad = merged[offset: offset + n].view_as(p).clone()
            offset += n
