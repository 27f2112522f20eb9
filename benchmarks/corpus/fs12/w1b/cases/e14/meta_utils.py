from collections import OrderedDict

import torch


def gradient_update_parameters(model, loss, params=None, step_size=0.5, first_order=False):
    if params is None:
        params = OrderedDict(model.meta_named_parameters())
    grads = torch.autograd.grad(loss, params.values(), create_graph=not first_order)
    updated = OrderedDict()
    for (name, param), grad in zip(params.items(), grads):
        updated[name] = param - step_size * grad
    return updated
