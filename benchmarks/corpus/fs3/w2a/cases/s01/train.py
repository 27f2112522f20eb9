import io

import torch
from torch import nn

from model import GraphTransformer

CONFIG = {
    "model": dict(node_dim=12, hidden_dim=32, heads=4, num_layers=2, num_tasks=1, norm="bn", dropout=0.1),
    "pretrain_steps": 8,
    "finetune_epochs": 2,
    "batch_size": 16,
    "lr": 1e-3,
}


def make_graphs(n, num_nodes, node_dim, shift, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, num_nodes, node_dim, generator=g) * 1.5 + shift
    pad = torch.zeros(n, num_nodes, dtype=torch.bool)
    y = x.mean(dim=(1, 2)).unsqueeze(-1) + 0.1 * torch.randn(n, 1, generator=g)
    return x, pad, y


def batches(x, pad, y, bs):
    perm = torch.randperm(x.shape[0])
    for i in range(0, x.shape[0], bs):
        idx = perm[i:i + bs]
        yield x[idx], pad[idx], y[idx]


def pretrain(cfg):
    model = GraphTransformer(**cfg["model"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    x, pad, y = make_graphs(128, 8, cfg["model"]["node_dim"], shift=0.0, seed=1)
    model.train()
    step = 0
    while step < cfg["pretrain_steps"]:
        for xb, pb, yb in batches(x, pad, y, cfg["batch_size"]):
            loss = nn.functional.mse_loss(model(xb, pb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
    buf = io.BytesIO()
    torch.save({"state_dict": model.state_dict(), "frozen_status": model.get_frozen_status()}, buf)
    buf.seek(0)
    return buf


def train_epoch(model, data, opt, cfg):
    model.train()
    total = 0.0
    for xb, pb, yb in batches(*data, cfg["batch_size"]):
        pred = model(xb, pb)
        loss = nn.functional.mse_loss(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total


@torch.no_grad()
def evaluate(model, data):
    model.eval()
    x, pad, y = data
    return nn.functional.mse_loss(model(x, pad), y).item()


if __name__ == "__main__":
    torch.manual_seed(0)
    checkpoint = torch.load(pretrain(CONFIG))

    model = GraphTransformer(**CONFIG["model"])
    model.load_state_dict(checkpoint["state_dict"])
    model.freeze()
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=CONFIG["lr"])

    train_data = make_graphs(64, 8, CONFIG["model"]["node_dim"], shift=2.0, seed=2)
    val_data = make_graphs(32, 8, CONFIG["model"]["node_dim"], shift=2.0, seed=3)
    for epoch in range(CONFIG["finetune_epochs"]):
        tr = train_epoch(model, train_data, optimizer, CONFIG)
        va = evaluate(model, val_data)
        print(f"epoch {epoch} train {tr:.4f} val {va:.4f} frozen={model.get_frozen_status()}")
