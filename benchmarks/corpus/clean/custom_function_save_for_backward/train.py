import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import gradcheck

from ops import ScaledSoftplusModule, scaled_softplus


def check_op():
    x = torch.randn(6, 3, dtype=torch.double, requires_grad=True)
    ok = gradcheck(lambda t: scaled_softplus(t, 2.0), (x,), eps=1e-6, atol=1e-4)
    print("gradcheck passed:", ok)


def build_model():
    return nn.Sequential(
        nn.Linear(8, 32), ScaledSoftplusModule(),
        nn.Linear(32, 32), ScaledSoftplusModule(beta=1.0),
        nn.Linear(32, 1),
    )


def main():
    torch.manual_seed(0)
    check_op()
    model = build_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = torch.randn(128, 8)
    y = (x ** 2).sum(dim=1, keepdim=True)
    for epoch in range(5):
        perm = torch.randperm(128)
        for i in range(0, 128, 32):
            idx = perm[i:i + 32]
            loss = F.mse_loss(model(x[idx]), y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
