import random

import torch
import torch.nn.functional as F

from net import MultiTaskNet
from pcgrad import PCGrad

SETTINGS = {
    "in_dim": 20,
    "n_classes": 3,
    "n_train": 1024,
    "batch_size": 64,
    "epochs": 4,
    "lr": 1e-3,
    "seed": 11,
}


def build_dataset(s):
    g = torch.Generator().manual_seed(s["seed"])
    x = torch.randn(s["n_train"], s["in_dim"], generator=g)
    w_cls = torch.randn(s["in_dim"], s["n_classes"], generator=g)
    w_reg = torch.randn(s["in_dim"], generator=g)
    y_cls = (x @ w_cls).argmax(1)
    y_reg = torch.tanh(x @ w_reg) + 0.1 * torch.randn(s["n_train"], generator=g)
    return x, y_cls, y_reg


def main(s):
    random.seed(s["seed"])
    torch.manual_seed(s["seed"])
    x, y_cls, y_reg = build_dataset(s)
    model = MultiTaskNet(s["in_dim"], n_classes=s["n_classes"])
    optimizer = PCGrad(torch.optim.Adam(model.parameters(), lr=s["lr"]))

    for epoch in range(s["epochs"]):
        perm = torch.randperm(x.size(0))
        tot_c = tot_r = 0.0
        n = 0
        for i in range(0, x.size(0), s["batch_size"]):
            idx = perm[i:i + s["batch_size"]]
            logits, pred = model(x[idx])
            loss_cls = F.cross_entropy(logits, y_cls[idx])
            loss_reg = F.mse_loss(pred, y_reg[idx])
            optimizer.zero_grad()
            optimizer.pc_backward([loss_cls, loss_reg])
            optimizer.step()
            tot_c += loss_cls.item()
            tot_r += loss_reg.item()
            n += 1
        with torch.no_grad():
            logits, pred = model(x)
            acc = (logits.argmax(1) == y_cls).float().mean().item()
            mse = F.mse_loss(pred, y_reg).item()
        print(f"epoch {epoch} cls {tot_c / n:.4f} reg {tot_r / n:.4f} acc {acc:.3f} mse {mse:.4f}")


if __name__ == "__main__":
    main(SETTINGS)
