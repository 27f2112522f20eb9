import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x))).squeeze(-1)


def hvp(loss, params, vec):
    grads = torch.autograd.grad(loss, params, create_graph=True)
    dot = sum((g * v).sum() for g, v in zip(grads, vec))
    return torch.autograd.grad(dot, params)


def top_eigenvalue(model, x, y, iters=10):
    params = [p for p in model.parameters() if p.requires_grad]
    vec = [torch.randn_like(p) for p in params]
    eig = 0.0
    for _ in range(iters):
        norm = torch.sqrt(sum((v ** 2).sum() for v in vec))
        vec = [v / norm for v in vec]
        loss = F.mse_loss(model(x), y)
        hv = hvp(loss, params, vec)
        eig = sum((h * v).sum() for h, v in zip(hv, vec)).item()
        vec = [h.detach() for h in hv]
    return eig


def main():
    torch.manual_seed(0)
    model = MLP()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    x_all = torch.randn(64, 10)
    y_all = x_all[:, 0] * 2 - x_all[:, 1]
    for epoch in range(3):
        for i in range(0, 64, 16):
            loss = F.mse_loss(model(x_all[i:i + 16]), y_all[i:i + 16])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        sharpness = top_eigenvalue(model, x_all, y_all)
        print(f"epoch {epoch} loss {loss.item():.4f} top Hessian eigenvalue {sharpness:.4f}")


if __name__ == "__main__":
    main()
