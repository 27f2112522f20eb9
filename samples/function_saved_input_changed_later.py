"""A custom splatting Function saves the flow it is given; the caller then refines that same
flow tensor in place before the loss is computed."""
import torch
from torch import nn


class Splat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, image, flow):
        ctx.save_for_backward(image, flow)
        return image * flow.sum(1, keepdim=True)

    @staticmethod
    def backward(ctx, grad):
        image, flow = ctx.saved_tensors
        return grad * flow.sum(1, keepdim=True), (grad * image).sum(1, keepdim=True).expand_as(flow)


class Warper(nn.Module):
    def __init__(self):
        super().__init__()
        self.flow_net = nn.Conv2d(3, 2, 3, padding=1)

    def forward(self, image):
        flow = self.flow_net(image)
        warped = Splat.apply(image, flow)
        flow += 0.1 * warped.mean()
        return warped, flow


torch.manual_seed(0)
warped, flow = Warper()(torch.randn(1, 3, 8, 8))
(warped.mean() + flow.mean()).backward()
