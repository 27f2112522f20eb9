import torch
import torch.nn.functional as F

from tailor import to_embedding_model

torch.manual_seed(0)

CONFIG = {
    "model": "resnet18",
    "output_dim": 32,
    "freeze": True,
    "epochs": 1,
    "batch_size": 4,
    "lr": 1e-3,
    "margin": 0.5,
}


def triplet_batches(n_batches, batch_size):
    for _ in range(n_batches):
        anchor = torch.randn(batch_size, 3, 32, 32)
        positive = anchor + 0.05 * torch.randn_like(anchor)
        negative = torch.randn(batch_size, 3, 32, 32)
        yield anchor, positive, negative


def triplet_loss(a, p, n, margin):
    a, p, n = (F.normalize(t, dim=-1) for t in (a, p, n))
    d_ap = (a - p).pow(2).sum(-1)
    d_an = (a - n).pow(2).sum(-1)
    return F.relu(d_ap - d_an + margin).mean()


def fit(model, cfg):
    params = [p for p in model.parameters() if p.requires_grad] or list(model.parameters())
    optimizer = torch.optim.Adam(params, lr=cfg["lr"])
    model.train()
    for epoch in range(cfg["epochs"]):
        for step, (a, p, n) in enumerate(triplet_batches(2, cfg["batch_size"])):
            loss = triplet_loss(model(a), model(p), model(n), cfg["margin"])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")


def main():
    model = to_embedding_model(
        CONFIG["model"], output_dim=CONFIG["output_dim"], freeze=CONFIG["freeze"]
    )
    fit(model, CONFIG)


if __name__ == "__main__":
    main()
