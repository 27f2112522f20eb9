"""Seed note 2: y.backward() frees the graph that z = y * 3 is built on."""
import torch

a = torch.tensor(1.0, requires_grad=True)
y = a ** 2
z = y * 3
y.backward()
print(a.grad)
z.backward(retain_graph=True)
print(a.grad)
