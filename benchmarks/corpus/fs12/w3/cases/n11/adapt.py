import torch


def add_tokens(model, n_new):
    old = model.embeddings.num_embeddings
    model.resize_token_embeddings(old + n_new)
    return list(range(old, old + n_new))


def train_only_rows(weight, rows):
    mask = torch.zeros(weight.size(0), 1)
    mask[rows] = 1.0
    return weight.register_hook(lambda grad: grad * mask)


def freeze_all_but(model, names):
    for n, p in model.named_parameters():
        p.requires_grad_(any(n.startswith(k) for k in names))
