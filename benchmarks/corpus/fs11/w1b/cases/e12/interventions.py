import torch


def record_grad_norm(grad, hook, store):
    store.setdefault(hook.name, []).append(grad.norm().item())


def scale_resid_grad(grad, hook, factor):
    return grad * factor


def clip_resid_grad(grad, hook, max_norm):
    norms = grad.norm(dim=-1, keepdim=True).clamp(min=1e-6)
    return grad * torch.clamp(max_norm / norms, max=1.0)


INTERVENTIONS = {
    "record": record_grad_norm,
    "scale": scale_resid_grad,
    "clip": clip_resid_grad,
}
