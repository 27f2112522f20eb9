"""A per-sample criterion kept in a variable, then backpropagated as if it were the loss."""
import torch
import torch.nn as nn


def build_criterion(kind):
    reduction = "none"
    if kind == "smooth_l1":
        criterion = nn.SmoothL1Loss(reduction=reduction, beta=0.5)
    else:
        criterion = nn.MSELoss(reduction=reduction)
    return criterion


def train(model, criterion, steps=3):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(steps):
        x, y = torch.randn(16, 8), torch.randn(16, 1)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


torch.manual_seed(0)
train(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)), build_criterion("smooth_l1"))
