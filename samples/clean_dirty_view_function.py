"""A custom autograd.Function that changes its input in place and says so (ctx.mark_dirty), given
a view: torch rebases the view's history while holding its autograd lock. Correct code; it must
run under gradscope exactly as under Python (it once deadlocked there)."""
import torch


class AddInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a.add_(b)
        ctx.mark_dirty(a)
        return a

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
AddInPlace.apply(a.clone().view_as(a), b).sum().backward()
print("a.grad", a.grad.tolist(), "b.grad", b.grad.tolist())


def scale_rows(x):
    y = x.clone()
    y[0].mul_(2)  # an in-place op on a view, as gradcheck runs it many times
    return y


x = torch.randn(3, 2, dtype=torch.double, requires_grad=True)
print("gradcheck", torch.autograd.gradcheck(scale_rows, (x,)))
