import argparse

import torch

from models import FCN32s
from trainer import Trainer

parser = argparse.ArgumentParser()
parser.add_argument("--max-iteration", type=int, default=24)
parser.add_argument("--lr", type=float, default=1.0e-2)
parser.add_argument("--momentum", type=float, default=0.9)
parser.add_argument("--interval-validate", type=int, default=8)
args = parser.parse_args()


def make_loader(n, batch, gen, n_class=4, size=16):
    imgs = torch.randn(n, 3, size, size, generator=gen)
    lbls = torch.randint(0, n_class, (n, size, size), generator=gen)
    lbls[:, :2, :] = -1
    return [(imgs[i:i + batch], lbls[i:i + batch]) for i in range(0, n, batch)]


torch.manual_seed(1337)
gen = torch.Generator().manual_seed(1)
train_loader = make_loader(48, 2, gen)
val_loader = make_loader(8, 2, gen)

model = FCN32s(n_class=4)
optim = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum, weight_decay=5e-4)
trainer = Trainer(model=model, optimizer=optim, train_loader=train_loader,
                  val_loader=val_loader, max_iter=args.max_iteration,
                  interval_validate=args.interval_validate)
trainer.train()
