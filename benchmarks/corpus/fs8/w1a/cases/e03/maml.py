import torch
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap


def inner_loop(model, params, buffers, x_spt, y_spt, n_inner_iter, inner_lr):
    def support_loss(p):
        logits = functional_call(model, (p, buffers), (x_spt,))
        return F.cross_entropy(logits, y_spt)

    for _ in range(n_inner_iter):
        grads = grad(support_loss)(params)
        params = {k: params[k] - inner_lr * grads[k] for k in params}
    return params


def task_query_loss(model, params, buffers, x_spt, y_spt, x_qry, y_qry, n_inner_iter, inner_lr):
    adapted = inner_loop(model, params, buffers, x_spt, y_spt, n_inner_iter, inner_lr)
    logits = functional_call(model, (adapted, buffers), (x_qry,))
    loss = F.cross_entropy(logits, y_qry)
    acc = (logits.argmax(dim=1) == y_qry).float().mean()
    return loss, acc


def meta_step(model, meta_opt, batch, n_inner_iter=1, inner_lr=0.1):
    x_spt, y_spt, x_qry, y_qry = batch
    params = dict(model.named_parameters())
    buffers = dict(model.named_buffers())

    def per_task(xs, ys, xq, yq):
        return task_query_loss(model, params, buffers, xs, ys, xq, yq, n_inner_iter, inner_lr)

    losses, accs = vmap(per_task)(x_spt, y_spt, x_qry, y_qry)
    meta_opt.zero_grad()
    losses.mean().backward()
    meta_opt.step()
    return losses.mean().item(), accs.mean().item()
