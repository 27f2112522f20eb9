import torch


class GradientReversalFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambda_):
        ctx.lambda_ = lambda_
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.lambda_, None


class ScaledSigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        out = torch.sigmoid(x * scale)
        ctx.save_for_backward(out)
        ctx.scale = scale
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output * out * (1 - out) * ctx.scale, None


def grad_reverse(x, lambda_=1.0):
    return GradientReversalFn.apply(x, lambda_)
