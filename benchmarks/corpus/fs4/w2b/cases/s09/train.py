import torch
import torch.nn as nn

from model import CatNetwork

torch.manual_seed(0)

n_input, n_hidden, lr = 64, 16, 5e-3
weight_decay = 1e-3
epoch_number = 40


def make_data(n=256):
    x = torch.randn(n, n_input)
    w = torch.randn(n_input, 1)
    y = (x @ w > 0).float()
    return x, y


def build_optimizer(model):
    weight_list, bias_list = model.split_weight_bias()
    return torch.optim.Adam(
        [
            {"params": weight_list, "weight_decay": 0.0},
            {"params": bias_list, "weight_decay": 0.0},
        ],
        lr=lr,
    )


def train(model, x, y):
    criterion = nn.BCELoss()
    optimizer = build_optimizer(model)
    history = []
    for epoch in range(epoch_number):
        out = model(x)
        loss = criterion(out, y) + model.regularization(weight_decay)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(loss.item())
        if epoch % 10 == 0:
            print(f"epoch {epoch:3d}  loss {loss.item():.4f}")
    return history


x, y = make_data()
model = CatNetwork(n_input, n_hidden, 1)
history = train(model, x, y)
with torch.no_grad():
    acc = ((model(x) > 0.5).float() == y).float().mean().item()
print(f"final loss {history[-1]:.4f}  train acc {acc:.3f}")
