import random

import torch


class PCGrad:
    def __init__(self, optimizer, shared_params, seed=0):
        self.optimizer = optimizer
        self.shared = list(shared_params)
        self.rng = random.Random(seed)

    def zero_grad(self):
        self.optimizer.zero_grad(set_to_none=True)

    def _flat_grads(self):
        return torch.cat([
            (p.grad if p.grad is not None else torch.zeros_like(p)).reshape(-1)
            for p in self.shared
        ])

    def _assign(self, flat):
        offset = 0
        for p in self.shared:
            n = p.numel()
            p.grad = flat[offset:offset + n].view_as(p).clone()
            offset += n

    def backward(self, losses):
        per_task = []
        for i, loss in enumerate(losses):
            for p in self.shared:
                p.grad = None
            loss.backward(retain_graph=i < len(losses) - 1)
            per_task.append(self._flat_grads())
        projected = [g.clone() for g in per_task]
        for i, gi in enumerate(projected):
            order = list(range(len(per_task)))
            self.rng.shuffle(order)
            for j in order:
                if j == i:
                    continue
                gj = per_task[j]
                dot = torch.dot(gi, gj)
                if dot < 0:
                    gi.sub_(dot / gj.norm().pow(2).clamp_min(1e-12) * gj)
        self._assign(torch.stack(projected).sum(0))

    def step(self):
        self.optimizer.step()
