import math

import torch
import torch.nn.functional as F

from models import DANN

opts = {
    "in_dim": 16,
    "n_classes": 4,
    "batch_size": 64,
    "n_epoch": 5,
    "steps_per_epoch": 20,
    "lr": 1e-3,
    "seed": 5,
}


def make_domains(o):
    g = torch.Generator().manual_seed(o["seed"])
    centers = torch.randn(o["n_classes"], o["in_dim"], generator=g) * 2
    shift = torch.randn(o["in_dim"], generator=g)
    rot = torch.linalg.qr(torch.randn(o["in_dim"], o["in_dim"], generator=g))[0]

    def sample(n, target):
        y = torch.randint(0, o["n_classes"], (n,), generator=g)
        x = centers[y] + torch.randn(n, o["in_dim"], generator=g)
        if target:
            x = (x @ (0.7 * torch.eye(o["in_dim"]) + 0.3 * rot)) + shift
        return x, y

    return sample


def main(o):
    torch.manual_seed(o["seed"])
    sample = make_domains(o)
    src_x, src_y = sample(2000, target=False)
    tgt_x, tgt_y = sample(2000, target=True)

    model = DANN(o["in_dim"], n_classes=o["n_classes"])
    optimizer = torch.optim.Adam(model.parameters(), lr=o["lr"])
    total_steps = o["n_epoch"] * o["steps_per_epoch"]

    for epoch in range(o["n_epoch"]):
        model.train()
        for i in range(o["steps_per_epoch"]):
            p = float(i + epoch * o["steps_per_epoch"]) / total_steps
            alpha = 2.0 / (1.0 + math.exp(-10 * p)) - 1

            si = torch.randint(0, src_x.size(0), (o["batch_size"],))
            ti = torch.randint(0, tgt_x.size(0), (o["batch_size"],))

            class_out, domain_out = model(src_x[si], alpha)
            err_s_label = F.cross_entropy(class_out, src_y[si])
            err_s_domain = F.cross_entropy(domain_out, torch.zeros(o["batch_size"], dtype=torch.long))

            _, domain_out_t = model(tgt_x[ti], alpha)
            err_t_domain = F.cross_entropy(domain_out_t, torch.ones(o["batch_size"], dtype=torch.long))

            err = err_s_label + err_s_domain + err_t_domain
            optimizer.zero_grad()
            err.backward()
            optimizer.step()

        model.eval()
        with torch.no_grad():
            acc_s = (model(src_x, 0.0)[0].argmax(1) == src_y).float().mean().item()
            acc_t = (model(tgt_x, 0.0)[0].argmax(1) == tgt_y).float().mean().item()
        print(f"epoch {epoch} alpha {alpha:.3f} err_label {err_s_label.item():.4f} "
              f"err_domain {(err_s_domain + err_t_domain).item():.4f} src_acc {acc_s:.3f} tgt_acc {acc_t:.3f}")


if __name__ == "__main__":
    main(opts)
