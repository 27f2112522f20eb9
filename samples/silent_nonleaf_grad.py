"""A weight made with requires_grad=True and then scaled: its .grad is never filled."""
import torch
import warnings

warnings.simplefilter("ignore")  # the user silenced torch's warning
w = torch.randn(3, requires_grad=True) * 0.01
x = torch.randn(3)
loss = (w * x).sum() ** 2
loss.backward()
print("w.grad:", w.grad)
