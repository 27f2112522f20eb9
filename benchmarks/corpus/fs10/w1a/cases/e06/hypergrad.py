import torch


def get_outer_gradients(outer_loss, params, hparams, retain_graph=True):
    grad_outer_w = torch.autograd.grad(outer_loss, params, retain_graph=retain_graph)
    grad_outer_hparams = torch.autograd.grad(outer_loss, hparams, retain_graph=retain_graph)
    return grad_outer_w, grad_outer_hparams


def update_tensor_grads(hparams, grads):
    for h, g in zip(hparams, grads):
        if h.grad is None:
            h.grad = torch.zeros_like(h)
        if g is not None:
            h.grad += g


def fixed_point(params, hparams, K, fp_map, outer_loss, tol=1e-10):
    params = [w.detach().requires_grad_(True) for w in params]
    o_loss = outer_loss(params, hparams)
    grad_outer_w, grad_outer_hparams = get_outer_gradients(o_loss, params, hparams)

    w_mapped = fp_map(params, hparams)
    vs = [torch.zeros_like(w) for w in params]
    vs_vec = torch.cat([v.flatten() for v in vs])
    for _ in range(K):
        vs_prev_vec = vs_vec
        vs = torch.autograd.grad(w_mapped, params, grad_outputs=vs, retain_graph=True)
        vs = [v + gow for v, gow in zip(vs, grad_outer_w)]
        vs_vec = torch.cat([v.flatten() for v in vs])
        if float(torch.norm(vs_vec - vs_prev_vec)) < tol:
            break

    grads = torch.autograd.grad(w_mapped, hparams, grad_outputs=vs, allow_unused=True)
    grads = [-g + v if g is not None else v for g, v in zip(grads, grad_outer_hparams)]
    update_tensor_grads(hparams, grads)
    return grads
