import random

import torch


class PCGrad:
    def __init__(self, optimizer, reduction="mean"):
        self._optim = optimizer
        self._reduction = reduction

    @property
    def optimizer(self):
        return self._optim

    def zero_grad(self):
        return self._optim.zero_grad(set_to_none=True)

    def step(self):
        return self._optim.step()

    def pc_backward(self, objectives):
        grads, shapes, has_grads = self._pack_grad(objectives)
        pc_grad = self._project_conflicting(grads, has_grads)
        pc_grad = self._unflatten_grad(pc_grad, shapes[0])
        self._set_grad(pc_grad)

    def _project_conflicting(self, grads, has_grads):
        shared = torch.stack(has_grads).prod(0).bool()
        pc_grad = [g.clone() for g in grads]
        for g_i in pc_grad:
            others = list(grads)
            random.shuffle(others)
            for g_j in others:
                dot = torch.dot(g_i, g_j)
                if dot < 0:
                    g_i -= dot * g_j / (g_j.norm() ** 2)
        merged = torch.zeros_like(grads[0])
        if self._reduction == "mean":
            merged[shared] = torch.stack([g[shared] for g in pc_grad]).mean(dim=0)
        else:
            merged[shared] = torch.stack([g[shared] for g in pc_grad]).sum(dim=0)
        merged[~shared] = torch.stack([g[~shared] for g in pc_grad]).sum(dim=0)
        return merged

    def _params(self):
        for group in self._optim.param_groups:
            for p in group["params"]:
                yield p

    def _set_grad(self, grads):
        for p, g in zip(self._params(), grads):
            p.grad = g

    def _pack_grad(self, objectives):
        grads, shapes, has_grads = [], [], []
        for i, obj in enumerate(objectives):
            self._optim.zero_grad(set_to_none=True)
            obj.backward(retain_graph=i < len(objectives) - 1)
            grad, shape, has_grad = self._retrieve_grad()
            grads.append(torch.cat([g.flatten() for g in grad]))
            has_grads.append(torch.cat([h.flatten() for h in has_grad]))
            shapes.append(shape)
        return grads, shapes, has_grads

    def _unflatten_grad(self, flat, shapes):
        out, idx = [], 0
        for shape in shapes:
            n = int(torch.tensor(shape).prod().item()) if len(shape) else 1
            out.append(flat[idx:idx + n].view(shape).clone())
            idx += n
        return out

    def _retrieve_grad(self):
        grad, shape, has_grad = [], [], []
        for p in self._params():
            shape.append(p.shape)
            if p.grad is None:
                grad.append(torch.zeros_like(p))
                has_grad.append(torch.zeros_like(p))
            else:
                grad.append(p.grad.clone())
                has_grad.append(torch.ones_like(p))
        return grad, shape, has_grad
