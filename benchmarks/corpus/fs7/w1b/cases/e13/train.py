import torch
import torch.nn as nn

import config as cfg
from backbone import CSPDarknet53


class YOLOHead(nn.Module):
    def __init__(self, in_channels, num_classes, anchors):
        super().__init__()
        self.out_dim = anchors * (5 + num_classes)
        self.convs = nn.ModuleList(nn.Conv2d(c, self.out_dim, 1) for c in in_channels)

    def forward(self, features):
        return [conv(f) for conv, f in zip(self.convs, features)]


class YOLOv4(nn.Module):
    def __init__(self, model_cfg):
        super().__init__()
        self.backbone = CSPDarknet53(model_cfg)
        self.head = YOLOHead(model_cfg["feature_channels"], model_cfg["num_classes"],
                             model_cfg["anchors_per_scale"])

    def forward(self, x):
        return self.head(self.backbone(x))


def yolo_loss(preds, targets):
    loss = 0.0
    for p, t in zip(preds, targets):
        obj = p[:, 4::p.shape[1] // 3]
        loss = loss + nn.functional.binary_cross_entropy_with_logits(obj, t)
        loss = loss + 1e-3 * p.pow(2).mean()
    return loss


class Trainer:
    def __init__(self):
        torch.manual_seed(0)
        self.model = YOLOv4(cfg.MODEL)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg.TRAIN["lr_init"],
                                         momentum=0.9)

    def random_batch(self):
        b, s = cfg.TRAIN["batch_size"], cfg.TRAIN["img_size"]
        imgs = torch.randn(b, 3, s, s)
        targets = [torch.randint(0, 2, (b, 3, s // 2 ** (i + 1), s // 2 ** (i + 1))).float()
                   for i in range(len(cfg.MODEL["feature_channels"]))]
        return imgs, targets

    def train(self):
        for epoch in range(cfg.TRAIN["epochs"]):
            self.model.train()
            for i in range(cfg.TRAIN["iters_per_epoch"]):
                imgs, targets = self.random_batch()
                preds = self.model(imgs)
                loss = yolo_loss(preds, targets)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                print(f"epoch {epoch} iter {i} loss {loss.item():.4f}")


if __name__ == "__main__":
    Trainer().train()
