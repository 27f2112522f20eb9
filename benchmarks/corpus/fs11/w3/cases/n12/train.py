import torch
import torch.nn.functional as F

from growing import GrowingMLP

SCHEDULE = {0: 8, 3: 16, 6: 32}
EPOCHS = 8
LR = 0.05


def make_optimizer(model):
    return torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9)


def data(n=128):
    x = torch.randn(n, 10)
    y = ((x[:, 0] * x[:, 1] + x[:, 2]) > 0).long()
    return x, y


def run():
    model = GrowingMLP(hidden=SCHEDULE[0])
    optimizer = make_optimizer(model)
    x, y = data()
    for epoch in range(EPOCHS):
        if epoch in SCHEDULE and epoch > 0:
            model.widen(SCHEDULE[epoch])
            optimizer = make_optimizer(model)
        for xb, yb in zip(x.split(32), y.split(32)):
            loss = F.cross_entropy(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            acc = (model(x).argmax(1) == y).float().mean().item()
        print(f"epoch {epoch}  width {model.fc1.out_features}  loss {loss.item():.4f}  acc {acc:.3f}")
    return model, optimizer


if __name__ == "__main__":
    torch.manual_seed(0)
    model, optimizer = run()
