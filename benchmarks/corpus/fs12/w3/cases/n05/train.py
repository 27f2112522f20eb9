import argparse

import torch
import torch.nn.functional as F

from backbone import pretrained_tiny_resnet
from finetune import TransferModel, set_requires_grad, trainable


def get_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--unfreeze-epoch", type=int, default=2)
    ap.add_argument("--unfreeze-layers", nargs="+", default=["layer3"])
    ap.add_argument("--lr", type=float, default=5e-2)
    ap.add_argument("--backbone-lr-mult", type=float, default=0.1)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--num-classes", type=int, default=4)
    return ap.parse_args()


def make_data(n, num_classes, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, num_classes, (n,), generator=g)
    base = torch.randn(num_classes, 3, 1, 1, generator=torch.Generator().manual_seed(99)).expand(-1, -1, 16, 16)
    return base[y] + torch.randn(n, 3, 16, 16, generator=g), y


def run_epoch(model, optimizer, data, batch_size):
    model.train()
    x, y = data
    perm = torch.randperm(x.size(0))
    total, count = 0.0, 0
    for s in range(0, x.size(0), batch_size):
        idx = perm[s:s + batch_size]
        loss = F.cross_entropy(model(x[idx]), y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * idx.numel()
        count += idx.numel()
    return total / count


@torch.no_grad()
def evaluate(model, data):
    model.eval()
    x, y = data
    return (model(x).argmax(1) == y).float().mean().item()


def main():
    args = get_args()
    torch.manual_seed(0)
    train_data = make_data(256, args.num_classes, 1)
    val_data = make_data(128, args.num_classes, 2)

    model = TransferModel(pretrained_tiny_resnet(), args.num_classes)
    set_requires_grad(model.backbone, False)
    optimizer = torch.optim.SGD(trainable(model.parameters()), lr=args.lr, momentum=0.9)

    for epoch in range(args.epochs):
        if epoch == args.unfreeze_epoch:
            new_params = []
            for name in args.unfreeze_layers:
                layer = getattr(model.backbone, name)
                set_requires_grad(layer, True)
                new_params += list(layer.parameters())
            optimizer.add_param_group({"params": new_params, "lr": args.lr * args.backbone_lr_mult})
            print(f"unfroze {args.unfreeze_layers}: {sum(p.numel() for p in new_params)} params")
        loss = run_epoch(model, optimizer, train_data, args.batch_size)
        acc = evaluate(model, val_data)
        n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
        print(f"epoch {epoch} loss {loss:.4f} val_acc {acc:.3f} trainable {n_train}")


if __name__ == "__main__":
    main()
