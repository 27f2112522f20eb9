import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from weighting import FAMO


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim=16, hidden=64, n_classes=5):
        super().__init__()
        self.shared = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.cls_head = nn.Linear(hidden, n_classes)
        self.reg_head = nn.Linear(hidden, 1)

    def shared_parameters(self):
        return list(self.shared.parameters())

    def task_specific_parameters(self):
        return list(self.cls_head.parameters()) + list(self.reg_head.parameters())

    def forward(self, x):
        h = self.shared(x)
        return self.cls_head(h), self.reg_head(h).squeeze(-1)


def task_losses(model, x, y_cls, y_reg):
    logits, reg = model(x)
    return torch.stack([F.cross_entropy(logits, y_cls), F.mse_loss(reg, y_reg)])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--max-norm", type=float, default=0.1)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    model = MultiTaskNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    weight_method = FAMO(n_tasks=2, device="cpu", max_norm=args.max_norm)

    w_true = torch.randn(16, 1) * 3.0
    for step in range(args.steps):
        x = torch.randn(64, 16)
        y_cls = torch.randint(0, 5, (64,))
        y_reg = (x @ w_true).squeeze(-1) * 4.0

        optimizer.zero_grad()
        losses = task_losses(model, x, y_cls, y_reg)
        loss, extra = weight_method.backward(
            losses=losses,
            shared_parameters=model.shared_parameters(),
            task_specific_parameters=model.task_specific_parameters(),
        )
        optimizer.step()

        with torch.no_grad():
            new_losses = task_losses(model, x, y_cls, y_reg)
        weight_method.update(new_losses.detach())
        if step % 5 == 0:
            print("step %d cls %.3f reg %.3f w %s" % (step, losses[0].item(), losses[1].item(),
                                                     extra["weights"].numpy().round(3)))
    return model


if __name__ == "__main__":
    model = main()
