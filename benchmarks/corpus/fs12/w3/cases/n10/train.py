import torch
import torch.nn.functional as F

from model import SignalClassifier

cfg = {
    "in_ch": 4,
    "max_len": 64,
    "num_classes": 5,
    "n_train": 512,
    "batch_size": 32,
    "epochs": 3,
    "lr": 2e-3,
    "weight_decay": 1e-4,
}


def make_dataset(cfg, seed):
    g = torch.Generator().manual_seed(seed)
    n = cfg["n_train"]
    y = torch.randint(0, cfg["num_classes"], (n,), generator=g)
    freqs = (y.float() + 1.0)[:, None, None]
    t = torch.linspace(0, 1, cfg["max_len"])[None, None, :]
    x = torch.sin(2 * torch.pi * freqs * t * 3) + 0.5 * torch.randn(n, cfg["in_ch"], cfg["max_len"], generator=g)
    lengths = torch.randint(cfg["max_len"] // 2, cfg["max_len"] + 1, (n,), generator=g)
    x = x * (torch.arange(cfg["max_len"])[None, None, :] < lengths[:, None, None])
    extra = torch.randn(n, 3, generator=g) + 0.2 * y[:, None]
    return x, lengths, extra, y


def main(cfg):
    torch.manual_seed(0)
    x, lengths, extra, y = make_dataset(cfg, 0)
    vx, vlen, vextra, vy = make_dataset(cfg, 1)
    model = SignalClassifier(cfg["in_ch"], num_classes=cfg["num_classes"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])

    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(x.size(0))
        losses = []
        for s in range(0, x.size(0), cfg["batch_size"]):
            idx = perm[s:s + cfg["batch_size"]]
            logits = model(x[idx], lengths[idx], extra[idx])
            loss = F.cross_entropy(logits, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        model.eval()
        with torch.no_grad():
            acc = (model(vx, vlen, vextra).argmax(1) == vy).float().mean().item()
        print(f"epoch {epoch} train_loss {sum(losses) / len(losses):.4f} val_acc {acc:.3f}")


if __name__ == "__main__":
    main(cfg)
