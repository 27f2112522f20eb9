"""torch.compile (eager backend): runs, and gradients come out the same."""
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
compiled = torch.compile(model, backend="eager")
x = torch.randn(2, 4)
compiled(x).sum().backward()
print(round(model[0].weight.grad.sum().item(), 5))
