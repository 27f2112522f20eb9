import torch
from torch import nn

from model import parsingNet

torch.manual_seed(0)

cfg = {
    "backbone": "18",
    "griding_num": 8,
    "num_lanes": 2,
    "cls_num_per_lane": 4,
    "size": (64, 160),
    "batch_size": 4,
    "learning_rate": 1e-3,
    "finetune": "lane_pretrained",
    "epoch": 1,
}


def pretrained_state(model):
    return {k: v.clone() for k, v in model.state_dict().items() if "model" in k}


def get_optimizer(net, cfg):
    return torch.optim.Adam(net.parameters(), lr=cfg["learning_rate"])


def train(net, loader, loss_fn, optimizer, epoch):
    net.train()
    for b_idx, (imgs, cls_label) in enumerate(loader):
        cls_out = net(imgs)
        loss = loss_fn(cls_out, cls_label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} iter {b_idx} loss {loss.item():.4f}")


def make_loader(cfg, n_batches=3):
    for _ in range(n_batches):
        imgs = torch.randn(cfg["batch_size"], 3, *cfg["size"])
        labels = torch.randint(0, cfg["griding_num"] + 1,
                               (cfg["batch_size"], cfg["cls_num_per_lane"], cfg["num_lanes"]))
        yield imgs, labels


if __name__ == "__main__":
    net = parsingNet(size=cfg["size"], backbone=cfg["backbone"],
                     cls_dim=(cfg["griding_num"] + 1, cfg["cls_num_per_lane"], cfg["num_lanes"]))

    if cfg["finetune"] is not None:
        print("finetune from", cfg["finetune"])
        state_all = pretrained_state(parsingNet(size=cfg["size"], backbone=cfg["backbone"],
                                                cls_dim=net.cls_dim))
        state_clip = {k: v for k, v in state_all.items() if "model" in k}
        net.load_state_dict(state_clip, strict=False)
        for param in net.parameters():
            param.requires_grad = False

    optimizer = get_optimizer(net, cfg)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(cfg["epoch"]):
        train(net, make_loader(cfg), loss_fn, optimizer, epoch)
