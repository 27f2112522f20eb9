import random

import torch


class PCGrad:
    """Projecting conflicting gradients (Yu et al., 2020) around a torch optimizer."""

    def __init__(self, optimizer, seed=0):
        self._optim = optimizer
        self._rng = random.Random(seed)

    @property
    def params(self):
        return [p for group in self._optim.param_groups for p in group["params"]]

    def zero_grad(self):
        self._optim.zero_grad(set_to_none=True)

    def step(self):
        self._optim.step()

    def pc_backward(self, objectives):
        grads, has_grads = self._pack_grads(objectives)
        merged = self._project(grads, has_grads)
        self._set_grad(merged)

    def _pack_grads(self, objectives):
        grads, has_grads = [], []
        for i, obj in enumerate(objectives):
            self._optim.zero_grad(set_to_none=True)
            obj.backward(retain_graph=i < len(objectives) - 1)
            g, h = [], []
            for p in self.params:
                if p.grad is None:
                    g.append(torch.zeros_like(p).flatten())
                    h.append(torch.zeros_like(p, dtype=torch.bool).flatten())
                else:
                    g.append(p.grad.detach().clone().flatten())
                    h.append(torch.ones_like(p, dtype=torch.bool).flatten())
            grads.append(torch.cat(g))
            has_grads.append(torch.cat(h))
        return grads, has_grads

    def _project(self, grads, has_grads):
        shared = torch.stack(has_grads).prod(0).bool()
        pc_grads = [g.clone() for g in grads]
        for g_i in pc_grads:
            order = list(range(len(grads)))
            self._rng.shuffle(order)
            for j in order:
                g_j = grads[j]
                dot = torch.dot(g_i, g_j)
                if dot < 0:
                    g_i -= dot * g_j / (g_j.norm() ** 2)
        stacked = torch.stack(pc_grads)
        merged = torch.zeros_like(grads[0])
        merged[shared] = stacked[:, shared].mean(0)
        merged[~shared] = stacked[:, ~shared].sum(0)
        return merged

    def _set_grad(self, flat):
        offset = 0
        for p in self.params:
            n = p.numel()
            p.grad = flat[offset:offset + n].view_as(p).clone()
            offset += n
