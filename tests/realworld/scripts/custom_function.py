"""Custom torch.autograd.Functions used inside a model: a clamp-like activation that saves its
input with ctx.save_for_backward, and a top-k routing function that returns indices marked
with ctx.mark_non_differentiable and a @once_differentiable backward; both checked with
torch.autograd.gradcheck on double inputs, then used in a few training steps."""

import torch
import torch.nn.functional as F
from torch import nn
from torch.autograd import Function, gradcheck
from torch.autograd.function import once_differentiable


class SoftClamp(Function):
    """y = x for |x| <= 1, else sign(x) * (1 + log|x|): smooth enough to pass gradcheck away from |x| = 1."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        outside = x.abs() > 1
        return torch.where(outside, x.sign() * (1 + x.abs().clamp_min(1).log()), x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        outside = x.abs() > 1
        return grad_output * torch.where(outside, 1 / x.abs().clamp_min(1), torch.ones_like(x))


class TopKGate(Function):
    """Keeps the k largest scores per row (the rest are zero); also returns their indices."""

    @staticmethod
    def forward(ctx, scores, k):
        values, indices = scores.topk(k, dim=-1)
        out = torch.zeros_like(scores).scatter(-1, indices, values)
        ctx.save_for_backward(indices)
        ctx.mark_non_differentiable(indices)
        return out, indices

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out, grad_indices):
        (indices,) = ctx.saved_tensors
        grad_scores = torch.zeros_like(grad_out).scatter(-1, indices, grad_out.gather(-1, indices))
        return grad_scores, None


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(8, 6)
        self.experts = nn.Linear(8, 6 * 4)
        self.out = nn.Linear(4, 3)

    def forward(self, x):
        weights, chosen = TopKGate.apply(self.gate(x).softmax(-1), 2)
        expert_out = SoftClamp.apply(self.experts(x)).view(-1, 6, 4)
        mixed = (weights.unsqueeze(-1) * expert_out).sum(1)
        return self.out(mixed), chosen


torch.manual_seed(0)
# Keep |x| away from the kink at 1 and the scores free of ties, where finite differences disagree.
x = torch.empty(5, 7, dtype=torch.double).uniform_(0.1, 3)
x = x * torch.where(torch.rand(5, 7, dtype=torch.double) < 0.5, -1.0, 1.0)
x = torch.where((x.abs() - 1).abs() < 0.1, x * 0.5, x).requires_grad_()
print("gradcheck SoftClamp:", gradcheck(SoftClamp.apply, (x,), eps=1e-6, atol=1e-4))
scores = torch.randperm(20, dtype=torch.double).view(4, 5).div(10).requires_grad_()
print("gradcheck TopKGate:", gradcheck(lambda s: TopKGate.apply(s, 2)[0], (scores,), eps=1e-6, atol=1e-4))

model = Model()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
data = torch.randn(16, 8)
labels = torch.randint(0, 3, (16,))
for step in range(4):
    logits, chosen = model(data)
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} chosen[0] {chosen[0].tolist()} "
          f"indices need grad: {chosen.requires_grad}")
