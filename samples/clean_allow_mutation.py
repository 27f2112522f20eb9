"""In-place changes that are safe: under allow_mutation_on_saved_tensors (torch keeps the saved
original), and after the backward that needed the value has run. gradscope must find nothing."""
import torch

torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)

with torch.autograd.graph.allow_mutation_on_saved_tensors():
    y = x.exp()
    y.mul_(2)  # torch cloned the saved value before this write
    y.sum().backward()
print("grad under allow_mutation", [round(g, 4) for g in x.grad.tolist()])

x.grad = None
z = x.sigmoid()
z.sum().backward()
z.mul_(0)  # the backward that needed z already ran
print("grad after backward", [round(g, 4) for g in x.grad.tolist()])

x.grad = None
w = x.tanh()
w.sum().backward(retain_graph=True)  # the graph is kept, but its backward has run
w.add_(1)
print("grad with a retained graph", [round(g, 4) for g in x.grad.tolist()])
