import torch

from lib.model import create_model
from lib.trainer import BaseTrainer

opt = {
    "task": "mot",
    "arch": "dla",
    "heads": {"hm": 1, "wh": 4, "id": 32},
    "head_conv": 32,
    "reid_dim": 32,
    "nID": 20,
    "lr": 1e-3,
    "num_epochs": 3,
    "batch_size": 4,
    "max_objs": 6,
    "input_res": 32,
}


def make_batch(opt, g):
    b, k, r = opt["batch_size"], opt["max_objs"], opt["input_res"] // 4
    ind = torch.stack([torch.randperm(r * r, generator=g)[:k] for _ in range(b)])
    hm = torch.rand(b, 1, r, r, generator=g) * 0.5
    hm.view(b, -1).scatter_(1, ind, 1.0)
    return {
        "input": torch.randn(b, 3, opt["input_res"], opt["input_res"], generator=g),
        "hm": hm,
        "ind": ind,
        "wh": torch.rand(b, k, 4, generator=g) * 4,
        "ids": torch.randint(0, opt["nID"], (b, k), generator=g),
    }


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    loader = [make_batch(opt, g) for _ in range(3)]
    model = create_model(opt["arch"], opt["heads"], opt["head_conv"])
    optimizer = torch.optim.Adam(model.parameters(), opt["lr"])
    trainer = BaseTrainer(opt, model, optimizer)
    for epoch in range(1, opt["num_epochs"] + 1):
        log = trainer.train(epoch, loader)
        print(f"epoch {epoch}: " + " ".join(f"{k} {v:.4f}" for k, v in log.items()))
    return trainer


if __name__ == "__main__":
    trainer = main()
