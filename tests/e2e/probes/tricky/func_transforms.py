"""torch.func: grad, vmap, and double backward with create_graph."""
import torch
from torch.func import grad, vmap

f = lambda x: (x.sin() * x).sum()
x = torch.linspace(-1, 1, 5)
print(grad(f)(x))
print(vmap(grad(lambda v: (v ** 3).sum()))(x.reshape(5, 1)))

w = torch.tensor([1.5, -0.5], requires_grad=True)
y = (w ** 3).sum()
(g,) = torch.autograd.grad(y, w, create_graph=True)
(h,) = torch.autograd.grad(g.sum(), w)
print(g, h)
loss = (w.exp() * w).sum()
loss.backward(create_graph=True)
print(w.grad)
w.grad = None
