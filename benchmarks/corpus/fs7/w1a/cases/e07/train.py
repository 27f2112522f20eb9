import torch

from callbacks import ImageLogger, LossPrinter
from trainer import AdvTrainer, SmallCNN

CONFIG = {"lr": 1e-3, "eps": 8 / 255, "adv_weight": 0.5, "batch_size": 8,
          "steps": 6, "log_images_every": 3, "seed": 1}


def make_loader(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
    for _ in range(cfg["steps"]):
        x = (torch.rand(cfg["batch_size"], 3, 32, 32, generator=g) - mean) / std
        y = torch.randint(0, 10, (cfg["batch_size"],), generator=g)
        yield x, y


def main(cfg):
    torch.manual_seed(cfg["seed"])
    model = SmallCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    callbacks = [LossPrinter(), ImageLogger(cfg["log_images_every"])]
    trainer = AdvTrainer(model, optimizer, cfg["eps"], cfg["adv_weight"], callbacks)
    trainer.fit(make_loader(cfg))


if __name__ == "__main__":
    main(CONFIG)
