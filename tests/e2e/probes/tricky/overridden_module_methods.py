"""A meta-learning model that overrides nn.Module's `parameters()` and `named_modules()` with
methods of its own signature (a MAML learner keeps its fast weights in a list): gradscope must
read the model without calling them (it once called `parameters(recurse=False)` and failed)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Learner(nn.Module):
    def __init__(self):
        super().__init__()
        self.vars = nn.ParameterList([nn.Parameter(torch.randn(8, 4) * 0.1), nn.Parameter(torch.zeros(8))])
        self.head = nn.Linear(8, 1)
        self.calls = 0

    def forward(self, x, weights=None):
        w, b = weights if weights is not None else self.vars
        return self.head(torch.relu(F.linear(x, w, b)))

    def parameters(self):  # the learner's own signature: no `recurse`
        self.calls += 1
        return iter(list(self.vars) + list(self.head.parameters()))

    def named_modules(self):
        raise RuntimeError("named_modules is not for this learner")


torch.manual_seed(0)
learner = Learner()
optimizer = torch.optim.SGD(learner.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    loss = F.mse_loss(learner(x), y)
    grads = torch.autograd.grad(loss, list(learner.vars), create_graph=True)
    fast = [w - 0.1 * g for w, g in zip(learner.vars, grads)]
    meta_loss = F.mse_loss(learner(x, fast), y)
    optimizer.zero_grad()
    meta_loss.backward()
    optimizer.step()
    print(f"step {step} meta loss {meta_loss.item():.4f}")
print("parameters() called", learner.calls, "time(s)")
