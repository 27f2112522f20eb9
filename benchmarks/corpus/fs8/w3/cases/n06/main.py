import math

import torch
import torch.nn.functional as F

from model import DANN

N_EPOCH = 3
LEN_DATALOADER = 8
BATCH = 16


def grl_coeff(p, gamma=10.0):
    return 2.0 / (1.0 + math.exp(-gamma * p)) - 1


def source_batch():
    x = torch.randn(BATCH, 20)
    y = (x[:, :4].argmax(1)).long()
    return x, y


def target_batch():
    return torch.randn(BATCH, 20) * 1.5 + 0.5


def main():
    torch.manual_seed(0)
    model = DANN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(N_EPOCH):
        model.train()
        for i in range(LEN_DATALOADER):
            p = float(i + epoch * LEN_DATALOADER) / N_EPOCH / LEN_DATALOADER
            model.grl.alpha = grl_coeff(p)

            xs, ys = source_batch()
            xt = target_batch()
            domain_s = torch.zeros(BATCH, dtype=torch.long)
            domain_t = torch.ones(BATCH, dtype=torch.long)

            class_out, dom_out_s = model(xs)
            _, dom_out_t = model(xt)
            err_label = F.cross_entropy(class_out, ys)
            err_domain = F.cross_entropy(dom_out_s, domain_s) + F.cross_entropy(dom_out_t, domain_t)
            err = err_label + err_domain

            optimizer.zero_grad()
            err.backward()
            optimizer.step()
        print(f"epoch {epoch} alpha={model.grl.alpha:.3f} label={err_label.item():.4f} domain={err_domain.item():.4f}")

    model.eval()
    with torch.no_grad():
        xs, ys = source_batch()
        acc = (model(xs)[0].argmax(1) == ys).float().mean().item()
    print(f"source acc {acc:.3f}")
    return model


if __name__ == "__main__":
    model = main()
