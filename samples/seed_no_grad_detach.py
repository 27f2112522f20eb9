"""Seed note 5: no_grad, detach, requires_grad_(False), in-place updates under no_grad, and
gradient accumulation across backward calls (all correct: no findings)."""
import torch

x = torch.ones(1, 2, requires_grad=True)
with torch.no_grad():
    x += 1
print(x)

x = torch.randn(3, requires_grad=True)
x.requires_grad_(False)
x = torch.randn(3, requires_grad=True)
y = x.detach()
with torch.no_grad():
    y2 = x + 2
print(y.requires_grad, y2.requires_grad, (x + 2).requires_grad)

x = torch.ones(1, 10, requires_grad=True)
y1 = x ** 2
with torch.no_grad():
    y2 = x ** 2
z = y1 ** 2 + y2 ** 2
z.sum().backward()
print(x.grad)

x = torch.ones(1, 2, requires_grad=True)
for _ in range(3):
    x.sum().backward()
print(x.grad)
x.grad.zero_()
x.sum().backward()
print(x.grad)

p = torch.ones(1, 2, requires_grad=True)
y = p ** 2
c = p + 1
(y ** 2).sum().backward()
c.sum().backward()
print(p.grad)
