"""Seed notes 2 and 3: retain_graph, vector backward with a gradient, autograd.grad (no error)."""
import torch

a = torch.tensor(1.0, requires_grad=True)
y = a ** 2
z = y * 3
y.backward(retain_graph=True)
print(a.grad)
z.backward(retain_graph=True)
print(a.grad)

x1 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z1 = (x1 + 2) * (x1 + 2) * 2
z1.backward(torch.tensor([1.0, 1.0, 1.0]))
print(x1.grad)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x + 2) ** 2
(4 * y).backward(torch.tensor([10.0, 1.0, 11.0]))
print(x.grad)

x = torch.tensor(5.0, requires_grad=True)
y = torch.pow(x, 3)
grad_x = torch.autograd.grad(y, x, create_graph=True)
print(grad_x)
grad_grad_x = torch.autograd.grad(grad_x[0], x)
print(grad_grad_x)
