"""The user's own TorchFunctionMode and TorchDispatchMode, saved-tensor hooks (save_on_cpu),
tensor and module hooks, and anomaly mode switched on and off."""
import torch
import torch.nn as nn
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode


class CountCalls(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.calls += 1
        return func(*args, **(kwargs or {}))


class CountAten(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.add(str(func.overloadpacket))
        return func(*args, **(kwargs or {}))


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 1))
seen = []
model[0].register_forward_hook(lambda m, i, o: seen.append(tuple(o.shape)))
model[2].register_full_backward_hook(lambda m, gi, go: seen.append("bwd"))
x = torch.randn(3, 4, requires_grad=True)
x.register_hook(lambda g: seen.append(round(g.sum().item(), 4)))
with CountCalls() as counter, CountAten() as aten:
    with torch.autograd.graph.save_on_cpu():
        out = model(x).sum()
    out.backward()
print(counter.calls > 0, sorted(aten.ops)[:3], seen)
torch.autograd.set_detect_anomaly(True)
(model(x) ** 2).sum().backward()
torch.autograd.set_detect_anomaly(False)
print(x.grad.sum().item())
