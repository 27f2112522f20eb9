import torch
import torch.nn as nn
from torch.autograd import grad


def clone_module(module, memo=None):
    if memo is None:
        memo = {}
    clone = module.__new__(type(module))
    clone.__dict__ = module.__dict__.copy()
    clone._parameters = clone._parameters.copy()
    clone._buffers = clone._buffers.copy()
    clone._modules = clone._modules.copy()

    for key, param in module._parameters.items():
        if param is None:
            continue
        ptr = param.data_ptr()
        if ptr in memo:
            clone._parameters[key] = memo[ptr]
        else:
            cloned = param.clone()
            clone._parameters[key] = cloned
            memo[ptr] = cloned

    for key, buf in module._buffers.items():
        if buf is not None and buf.requires_grad:
            clone._buffers[key] = buf.clone()

    for key, child in module._modules.items():
        if child is not None:
            clone._modules[key] = clone_module(child, memo)
    return clone


def update_module(module, updates):
    params = [p for p in module.parameters() if p.requires_grad]
    for p, g in zip(params, updates):
        p.update = g
    memo = {}
    _apply_updates(module, memo)
    return module


def _apply_updates(module, memo):
    for key, p in list(module._parameters.items()):
        if p is None:
            continue
        if id(p) in memo:
            module._parameters[key] = memo[id(p)]
        elif getattr(p, "update", None) is not None:
            new_p = p + p.update
            memo[id(p)] = new_p
            module._parameters[key] = new_p
    for child in module._modules.values():
        if child is not None:
            _apply_updates(child, memo)


class MAML(nn.Module):
    def __init__(self, model, lr, first_order=False):
        super().__init__()
        self.module = model
        self.lr = lr
        self.first_order = first_order

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def adapt(self, loss):
        second_order = not self.first_order
        params = [p for p in self.module.parameters() if p.requires_grad]
        grads = grad(loss, params, retain_graph=second_order, create_graph=second_order)
        updates = [-self.lr * g for g in grads]
        update_module(self.module, updates)

    def clone(self):
        return MAML(clone_module(self.module), lr=self.lr, first_order=self.first_order)
