"""backward() twice on the same loss, e.g. once for logging and once for the update."""
import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
loss = (w.exp() * w).sum()
loss.backward()
print("first:", w.grad)
loss.backward()
