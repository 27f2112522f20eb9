import torch

from net import SignalClassifier
from trainer import Trainer

CFG = {"device": "cpu", "use_amp": True, "amp_dtype": "bfloat16", "init_scale": 2.0 ** 10,
       "lr": 3e-3, "clip": 2.0, "label_smoothing": 0.05, "epochs": 2}


class LossLogger:
    def __init__(self):
        self.history = []
        self.norms = []

    def on_step_end(self, trainer, loss, grad_norm):
        self.history.append(loss.item())
        self.norms.append(grad_norm.item())

    def on_epoch_end(self, trainer, epoch):
        recent = self.history[-4:]
        print(f"epoch {epoch} loss {sum(recent) / len(recent):.4f} "
              f"scale {trainer.scaler.get_scale():.0f}")


def make_loader(n_batches=8, bsz=16, ch=4, length=64, n_classes=6):
    g = torch.Generator().manual_seed(1)
    out = []
    for _ in range(n_batches):
        y = torch.randint(0, n_classes, (bsz,), generator=g)
        t = torch.linspace(0, 1, length)
        x = torch.sin(2 * torch.pi * (y[:, None, None] + 1) * t) + 0.3 * torch.randn(
            bsz, ch, length, generator=g)
        out.append((x, y))
    return out


def main(cfg=CFG):
    torch.manual_seed(0)
    model = SignalClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=1e-2)
    logger = LossLogger()
    trainer = Trainer(model, optimizer, cfg, callbacks=[logger])
    trainer.fit(make_loader(), cfg["epochs"])
    return model, trainer, logger


if __name__ == "__main__":
    model, trainer, logger = main()
