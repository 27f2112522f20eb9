import compat  # noqa: F401
import timm
import torch
from timm.data import Mixup
from timm.loss import SoftTargetCrossEntropy
from timm.optim import create_optimizer_v2

from config import CFG
from engine import evaluate, train_one_epoch


class SyntheticLoader:
    def __init__(self, n_batches, bsz, num_classes, img_size, seed):
        self.n_batches, self.bsz, self.num_classes, self.img_size = n_batches, bsz, num_classes, img_size
        self.seed = seed

    def __iter__(self):
        gen = torch.Generator().manual_seed(self.seed)
        for _ in range(self.n_batches):
            x = torch.randn(self.bsz, 3, self.img_size, self.img_size, generator=gen)
            y = torch.randint(0, self.num_classes, (self.bsz,), generator=gen)
            yield x, y


def main(cfg=CFG):
    torch.manual_seed(0)
    model = timm.create_model(cfg["model"], pretrained=False, **cfg["model_kwargs"])
    model.set_grad_checkpointing(cfg["grad_checkpointing"])
    optimizer = create_optimizer_v2(model, opt=cfg["opt"], lr=cfg["lr"],
                                    weight_decay=cfg["weight_decay"],
                                    layer_decay=cfg["layer_decay"])
    num_classes = cfg["model_kwargs"]["num_classes"]
    mixup_fn = Mixup(**cfg["mixup"], num_classes=num_classes)
    criterion = SoftTargetCrossEntropy()
    img = cfg["model_kwargs"]["img_size"]
    train_loader = SyntheticLoader(cfg["steps"], cfg["batch_size"], num_classes, img, seed=1)
    val_loader = SyntheticLoader(2, cfg["batch_size"], num_classes, img, seed=2)
    for epoch in range(2):
        loss = train_one_epoch(model, train_loader, criterion, optimizer, mixup_fn, max_norm=1.0)
        acc = evaluate(model, val_loader)
        print(f"epoch {epoch} train_loss {loss:.4f} val_acc {acc:.3f}")
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
