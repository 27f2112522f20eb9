import torch

from model import ClassificationModel
from trainer import BaseTrainer

DEFAULT_CFG = {
    "epochs": 2, "batch": 16, "nbs": 64, "lr0": 0.01, "lrf": 0.01,
    "momentum": 0.937, "weight_decay": 0.0005, "imgsz": 16, "nc": 5,
}


def build_dataloader(cfg, n_images, gen):
    imgs = torch.randn(n_images, 3, cfg["imgsz"], cfg["imgsz"], generator=gen)
    labels = torch.randint(0, cfg["nc"], (n_images,), generator=gen)
    return [{"img": imgs[i:i + cfg["batch"]], "cls": labels[i:i + cfg["batch"]]}
            for i in range(0, n_images, cfg["batch"])]


torch.manual_seed(0)
gen = torch.Generator().manual_seed(7)
train_loader = build_dataloader(DEFAULT_CFG, 160, gen)
model = ClassificationModel(nc=DEFAULT_CFG["nc"])
trainer = BaseTrainer(model, DEFAULT_CFG)
trainer._do_train(train_loader)
