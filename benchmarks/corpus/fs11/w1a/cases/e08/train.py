import torch
import torch.nn.functional as F

from model import BEVDet

torch.manual_seed(0)

cfg = dict(
    grid_conf=dict(nx=8),
    model=dict(pool="quick"),
    optimizer=dict(lr=2e-4, weight_decay=1e-2),
    data=dict(batch_size=2, num_cams=2, img_size=(32, 48)),
    max_iters=3,
)


def build_model(cfg):
    return BEVDet(cfg["grid_conf"], **cfg["model"])


def fake_batch(cfg):
    d = cfg["data"]
    imgs = torch.randn(d["batch_size"], d["num_cams"], 3, *d["img_size"])
    nx = cfg["grid_conf"]["nx"]
    heatmap = torch.rand(d["batch_size"], 4, nx, nx)
    return imgs, heatmap


def train_step(model, batch, optimizer):
    imgs, heatmap = batch
    pred = model(imgs)
    loss = F.binary_cross_entropy_with_logits(pred, heatmap)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def train_detector(model, cfg):
    optimizer = torch.optim.AdamW(model.parameters(), **cfg["optimizer"])
    model.train()
    for it in range(cfg["max_iters"]):
        loss = train_step(model, fake_batch(cfg), optimizer)
        print(f"iter {it} loss {loss:.4f}")


if __name__ == "__main__":
    model = build_model(cfg)
    train_detector(model, cfg)
