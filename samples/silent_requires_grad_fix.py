"""Silencing "does not require grad" with loss.requires_grad = True: the model trains nothing."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
loss = nn.functional.mse_loss(model(x).detach(), y)
loss.requires_grad = True
loss.backward()
print("weight.grad:", model.weight.grad)
