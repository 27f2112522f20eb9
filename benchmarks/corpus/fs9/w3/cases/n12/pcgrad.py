import random

import torch


class PCGrad:
    """Projects conflicting task gradients on the shared parameters (Yu et al., 2020)."""

    def __init__(self, optimizer, shared_params, seed=0):
        self.optimizer = optimizer
        self.shared = list(shared_params)
        self.rng = random.Random(seed)

    def zero_grad(self):
        self.optimizer.zero_grad(set_to_none=True)

    def step(self):
        self.optimizer.step()

    def _flat_shared_grad(self):
        return torch.cat([(p.grad if p.grad is not None else torch.zeros_like(p)).flatten()
                          for p in self.shared])

    def pc_backward(self, losses):
        task_grads = []
        other_grads = None
        for i, loss in enumerate(losses):
            for p in self.shared:
                p.grad = None
            loss.backward(retain_graph=i < len(losses) - 1)
            task_grads.append(self._flat_shared_grad().clone())
        projected = [g.clone() for g in task_grads]
        for g_i in projected:
            order = list(range(len(task_grads)))
            self.rng.shuffle(order)
            for j in order:
                g_j = task_grads[j]
                dot = torch.dot(g_i, g_j)
                if dot < 0:
                    g_i -= dot / (g_j.norm() ** 2 + 1e-12) * g_j
        merged = torch.stack(projected).sum(0)
        offset = 0
        for p in self.shared:
            n = p.numel()
            p.grad = merged[offset:offset + n].view_as(p).clone()
            offset += n
        return task_grads, merged
