"""A helper computes the loss and calls backward; the training step calls it once to log and
once to train, on the same outputs. The second call finds the graph freed: call it once."""
import torch
import torch.nn as nn


def backward_loss(out, target):
    loss = nn.functional.mse_loss(out, target)
    loss.backward()
    return loss.item()


torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
out = model(x)
logged = backward_loss(out, y)
trained = backward_loss(out, y)
opt.step()
