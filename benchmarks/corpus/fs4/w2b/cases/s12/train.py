import argparse

import torch
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

from model import TabularClassifier


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Tabular classification with accelerate")
    parser.add_argument("--per_device_train_batch_size", type=int, default=8)
    parser.add_argument("--gradient_accumulation_steps", type=int, default=4)
    parser.add_argument("--learning_rate", type=float, default=0.05)
    parser.add_argument("--num_train_epochs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=17)
    return parser.parse_args(argv)


def get_dataloader(args, n=256, n_features=20, n_classes=3):
    g = torch.Generator().manual_seed(args.seed)
    x = torch.randn(n, n_features, generator=g)
    w = torch.randn(n_features, n_classes, generator=g)
    y = (x @ w).argmax(1)
    return DataLoader(TensorDataset(x, y), batch_size=args.per_device_train_batch_size, shuffle=True, generator=g)


def compute_loss(model, batch, args):
    x, y = batch
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    return loss / args.gradient_accumulation_steps


def training_function(args):
    accelerator = Accelerator(cpu=True, gradient_accumulation_steps=args.gradient_accumulation_steps)
    set_seed(args.seed)
    train_dataloader = get_dataloader(args)
    model = TabularClassifier(20, 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.learning_rate, momentum=0.9)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)

    for epoch in range(args.num_train_epochs):
        model.train()
        total_loss = 0.0
        for step, batch in enumerate(train_dataloader):
            with accelerator.accumulate(model):
                loss = compute_loss(model, batch, args)
                total_loss += loss.detach().float()
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
        accelerator.print(f"epoch {epoch}: loss {total_loss.item() / len(train_dataloader):.4f}")
    return accelerator, model


def main():
    args = parse_args()
    return training_function(args), args


if __name__ == "__main__":
    (accelerator, model), args = main()
