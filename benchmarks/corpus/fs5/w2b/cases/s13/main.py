import compat  # noqa: F401

import timm
import torch
import torch.nn as nn

from strategy import FinetuneStrategy

CFG = {
    "arch": "resnet18",
    "num_classes": 5,
    "lr": 0.01,
    "mb_size": 8,
    "epochs": 1,
    "iters_per_exp": 6,
    "eval_every": 3,
    "seed": 42,
}


class LinearProbeModel(nn.Module):
    def __init__(self, arch, num_classes):
        super().__init__()
        self.backbone = timm.create_model(arch, pretrained=False, num_classes=0)
        self.head = nn.Linear(self.backbone.num_features, num_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


def make_experience(n_iters, mb, num_classes, shift):
    return [(torch.randn(mb, 3, 32, 32) * 1.5 + shift, torch.randint(0, num_classes, (mb,)))
            for _ in range(n_iters)]


def main():
    torch.manual_seed(CFG["seed"])
    model = LinearProbeModel(CFG["arch"], CFG["num_classes"])
    optimizer = torch.optim.SGD(model.head.parameters(), lr=CFG["lr"], momentum=0.9)
    strategy = FinetuneStrategy(model, optimizer, train_mb_size=CFG["mb_size"],
                                train_epochs=CFG["epochs"], eval_every=CFG["eval_every"])
    train_exp = make_experience(CFG["iters_per_exp"], CFG["mb_size"], CFG["num_classes"], shift=0.7)
    eval_stream = make_experience(2, CFG["mb_size"], CFG["num_classes"], shift=0.7)
    strategy.train(train_exp, eval_stream)
    print("periodic eval accuracy:", [round(a, 3) for a in strategy.peval_results])
    return strategy


if __name__ == "__main__":
    strategy = main()
