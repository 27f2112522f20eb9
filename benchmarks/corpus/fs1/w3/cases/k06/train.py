import torch

from model import MultiTaskNet
from trainer import MultiTaskTrainer


def make_split(n, w_cls, w_reg):
    x = torch.randn(n, 20)
    return x, (x @ w_cls).argmax(-1), torch.tanh(x @ w_reg)


if __name__ == "__main__":
    torch.manual_seed(0)
    w_cls, w_reg = torch.randn(20, 4), torch.randn(20) / 4
    train_x, train_c, train_r = make_split(512, w_cls, w_reg)
    val_x, val_c, val_r = make_split(128, w_cls, w_reg)

    model = MultiTaskNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    trainer = MultiTaskTrainer(model, optimizer)

    for epoch in range(4):
        perm = torch.randperm(train_x.size(0))
        for i in range(0, train_x.size(0), 64):
            idx = perm[i:i + 64]
            stats = trainer.train_step(train_x[idx], train_c[idx], train_r[idx])
        acc, mae = trainer.evaluate(val_x, val_c, val_r)
        print(f"epoch {epoch} cls {stats['cls']:.3f} reg {stats['reg']:.3f} "
              f"cos {stats['grad_cos']:+.2f} val_acc {acc:.3f} val_mae {mae:.3f}")
