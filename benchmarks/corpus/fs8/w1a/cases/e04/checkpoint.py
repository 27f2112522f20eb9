import torch


def detach_variable(inputs):
    out = []
    for x in inputs:
        y = x.detach()
        y.requires_grad = x.requires_grad
        out.append(y)
    return tuple(out)


class CheckpointFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, run_function, *args):
        ctx.run_function = run_function
        ctx.save_for_backward(*args)
        with torch.no_grad():
            outputs = run_function(*args)
        return outputs

    @staticmethod
    def backward(ctx, *output_grads):
        inputs = detach_variable(ctx.saved_tensors)
        with torch.enable_grad():
            outputs = ctx.run_function(*inputs)
        if isinstance(outputs, torch.Tensor):
            outputs = (outputs,)
        torch.autograd.backward(outputs, output_grads)
        input_grads = tuple(x.grad for x in inputs)
        return (None, None) + input_grads


def checkpoint(function, *args):
    return CheckpointFunction.apply(function, *args)
