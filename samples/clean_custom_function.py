"""A correct custom autograd.Function (saves its input, returns one gradient per input). No findings."""
import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return scale * x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * ctx.scale * x ** 2, None


x = torch.randn(5, dtype=torch.float64, requires_grad=True)
Cube.apply(x, 2.0).sum().backward()
print(torch.allclose(x.grad, 6 * x.detach() ** 2))
print(torch.autograd.gradcheck(lambda t: Cube.apply(t, 2.0), (x,)))
