import torch

from model import SmallConvNet
from trainer import Trainer, TrainerConfig


def make_split(n, num_classes=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, num_classes, (n,), generator=g)
    prototypes = torch.randn(num_classes, 3, 16, 16, generator=torch.Generator().manual_seed(42))
    x = prototypes[y] + 0.8 * torch.randn(n, 3, 16, 16, generator=g)
    return x, y


def main():
    torch.manual_seed(0)
    config = TrainerConfig()
    train_set = make_split(400, seed=1)
    val_set = make_split(200, seed=2)
    model = SmallConvNet(num_classes=10)
    trainer = Trainer(model, train_set, val_set, config)
    trainer.fit()


if __name__ == "__main__":
    main()
