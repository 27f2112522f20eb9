"""Non-reentrant activation checkpointing (what Hugging Face's gradient_checkpointing_enable()
uses) and a user's own saved_tensors_hooks: their functions must run exactly as often as under
Python. gradscope never unpacks a tensor saved through such hooks (it once re-ran the
checkpointed function for each one)."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
calls = {"block": 0, "pack": 0, "unpack": 0}
layer = nn.Linear(4, 4)


def block(x):
    calls["block"] += 1
    return torch.tanh(layer(x)).sin() * 2


def pack(tensor):
    calls["pack"] += 1
    return tensor


def unpack(tensor):
    calls["unpack"] += 1
    return tensor


x = torch.randn(3, 4, requires_grad=True)
y = checkpoint(block, x, use_reentrant=False)
print("after forward", calls["block"])
y.sum().backward()
print("after backward", calls["block"])

with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    z = (layer(x).exp() * x).sum()
print("after hooked forward", calls["pack"], calls["unpack"])
z.backward()
print("after hooked backward", calls["pack"], calls["unpack"])
