import random

import torch


class PCGrad:
    def __init__(self, optimizer, reduction="mean"):
        self._optim = optimizer
        self._reduction = reduction

    @property
    def params(self):
        return [p for group in self._optim.param_groups for p in group["params"]]

    def zero_grad(self):
        self._optim.zero_grad(set_to_none=True)

    def step(self):
        return self._optim.step()

    def pc_backward(self, objectives):
        grads, shapes, has_grads = self._pack_grad(objectives)
        merged = self._project_conflicting(grads, has_grads)
        self._set_grad(self._unflatten(merged, shapes))

    def _project_conflicting(self, grads, has_grads):
        shared = torch.stack(has_grads).prod(0).bool()
        pc_grad = [g.clone() for g in grads]
        for g_i in pc_grad:
            order = list(range(len(grads)))
            random.shuffle(order)
            for j in order:
                g_j = grads[j]
                dot = torch.dot(g_i, g_j)
                if dot < 0:
                    g_i -= dot * g_j / (g_j.norm() ** 2)
        stacked = torch.stack(pc_grad)
        merged = torch.zeros_like(grads[0])
        if self._reduction == "mean":
            merged[shared] = stacked[:, shared].mean(0)
        else:
            merged[shared] = stacked[:, shared].sum(0)
        merged[~shared] = stacked[:, ~shared].sum(0)
        return merged

    def _set_grad(self, grads):
        for p, g in zip(self.params, grads):
            p.grad = g

    def _pack_grad(self, objectives):
        grads, shapes, has_grads = [], [], []
        for i, obj in enumerate(objectives):
            self.zero_grad()
            obj.backward(retain_graph=i < len(objectives) - 1)
            g, s, h = self._retrieve_grad()
            grads.append(torch.cat([x.flatten() for x in g]))
            has_grads.append(torch.cat([x.flatten() for x in h]))
            shapes = s
        return grads, shapes, has_grads

    def _retrieve_grad(self):
        grad, shape, has_grad = [], [], []
        for p in self.params:
            shape.append(p.shape)
            if p.grad is None:
                grad.append(torch.zeros_like(p))
                has_grad.append(torch.zeros_like(p))
            else:
                grad.append(p.grad.clone())
                has_grad.append(torch.ones_like(p))
        return grad, shape, has_grad

    def _unflatten(self, flat, shapes):
        out, idx = [], 0
        for s in shapes:
            n = int(torch.Size(s).numel())
            out.append(flat[idx: idx + n].view(s).clone())
            idx += n
        return out
