import torch
import torch.nn.functional as F


def gram(x):
    b, c, h, w = x.shape
    x = x.view(b, c, -1)
    return torch.bmm(x, x.transpose(1, 2)) / (c * h * w)


def gram_mse_loss(inp, target):
    return F.mse_loss(gram(inp), gram(target))


def content_loss(sfs, targ, layer):
    return F.mse_loss(sfs[layer].features, targ)


def style_loss(sfs, targ_styles):
    return sum(gram_mse_loss(sf.features, t) for sf, t in zip(sfs, targ_styles))


def optimize(model, opt_img, loss_fn, n_iter, lr=0.05):
    optimizer = torch.optim.Adam([opt_img], lr=lr)
    for i in range(n_iter):
        optimizer.zero_grad()
        model(opt_img)
        loss = loss_fn()
        loss.backward()
        optimizer.step()
    return opt_img, loss.item()
