"""A custom Function saves its inputs for backward; the caller then refines one of them, the
flow, in place (`flow += ...`), so the Function's backward finds its saved flow changed."""
import torch
from torch import nn


class Warp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, image, flow):
        ctx.save_for_backward(image, flow)
        return image * flow.mean(1, keepdim=True)

    @staticmethod
    def backward(ctx, grad_out):
        image, flow = ctx.saved_tensors
        return grad_out * flow.mean(1, keepdim=True), (grad_out * image).sum(1, keepdim=True).expand_as(flow) / 2


torch.manual_seed(0)
refine = nn.Conv2d(5, 2, 3, padding=1)
image = torch.randn(1, 3, 8, 8, requires_grad=True)
flow = torch.randn(1, 2, 8, 8, requires_grad=True) * 1.0
warped = Warp.apply(image, flow)
flow += refine(torch.cat([warped, flow], 1))
loss = warped.sum() + flow.sum()
loss.backward()
