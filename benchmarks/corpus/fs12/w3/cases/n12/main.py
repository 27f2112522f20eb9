import torch

from engine import evaluate, train_one_epoch
from optim_utils import build_optimizer, cosine_with_warmup
from vit import TinyViT

config = {
    "num_classes": 6,
    "batch_size": 32,
    "epochs": 3,
    "lr": 1e-3,
    "weight_decay": 0.05,
    "warmup_epochs": 1,
    "n_train": 640,
    "n_val": 192,
}


def synthetic_images(n, num_classes, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, num_classes, (n,), generator=g)
    templates = torch.randn(num_classes, 3, 16, 16, generator=torch.Generator().manual_seed(1234))
    x = templates[y] + 0.7 * torch.randn(n, 3, 16, 16, generator=g)
    return x, y


def batches(data, batch_size, shuffle):
    x, y = data
    idx = torch.randperm(x.size(0)) if shuffle else torch.arange(x.size(0))
    return [(x[idx[i:i + batch_size]], y[idx[i:i + batch_size]]) for i in range(0, x.size(0), batch_size)]


def main(cfg):
    torch.manual_seed(0)
    train_data = synthetic_images(cfg["n_train"], cfg["num_classes"], 1)
    val_data = synthetic_images(cfg["n_val"], cfg["num_classes"], 2)
    model = TinyViT(num_classes=cfg["num_classes"])
    optimizer = build_optimizer(model, cfg)
    steps_per_epoch = len(batches(train_data, cfg["batch_size"], False))
    scheduler = cosine_with_warmup(optimizer, cfg["warmup_epochs"] * steps_per_epoch, cfg["epochs"] * steps_per_epoch)

    for epoch in range(cfg["epochs"]):
        train_one_epoch(model, batches(train_data, cfg["batch_size"], True), optimizer, scheduler, epoch)
        val_loss, val_acc = evaluate(model, batches(val_data, 64, False))
        print(f"* epoch {epoch} val_loss {val_loss:.4f} acc@1 {val_acc:.3f}")


if __name__ == "__main__":
    main(config)
