"""Conv and batch-norm folding writes the folded weight and bias into a new convolution's
parameters by slice assignment, with gradient tracking on: the first write into a leaf that
requires grad raises."""
import torch
from torch import nn


def fold(conv, bn):
    fused = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, bias=True)
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    fused.weight[:] = conv.weight * scale.reshape(-1, 1, 1, 1)
    fused.bias[:] = bn.bias - bn.running_mean * scale
    return fused


def fold_model(model):
    model.eval()
    model[0] = fold(model[0], model[1])
    model[1] = nn.Identity()
    return model


torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU())
model = fold_model(model)
print(model(torch.randn(1, 3, 8, 8)).shape)
