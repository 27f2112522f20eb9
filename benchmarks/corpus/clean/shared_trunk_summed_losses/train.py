import torch
import torch.nn.functional as F

from model import MultiTaskNet

LOSS_WEIGHTS = {"cls": 1.0, "reg": 0.5}


def compute_losses(model, x, labels, targets):
    logits, pred = model(x)
    return {
        "cls": F.cross_entropy(logits, labels),
        "reg": F.mse_loss(pred, targets),
    }


def train_step(model, optimizer, batch):
    losses = compute_losses(model, *batch)
    total = sum(LOSS_WEIGHTS[k] * v for k, v in losses.items())
    optimizer.zero_grad()
    total.backward()
    optimizer.step()
    return {k: v.item() for k, v in losses.items()}, total.item()


def main():
    torch.manual_seed(0)
    model = MultiTaskNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(3):
        for it in range(4):
            x = torch.randn(16, 20)
            labels = torch.randint(0, 5, (16,))
            targets = x[:, :3].sum(dim=1)
            parts, total = train_step(model, optimizer, (x, labels, targets))
        print(f"epoch {epoch} total {total:.4f} cls {parts['cls']:.4f} reg {parts['reg']:.4f}")


if __name__ == "__main__":
    main()
