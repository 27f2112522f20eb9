import torch
from torch import nn


def fuse_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    cconv = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size,
                      stride=conv.stride, padding=conv.padding, dilation=conv.dilation,
                      groups=conv.groups, bias=True)
    std = torch.sqrt(bn.running_var + bn.eps)
    scale = bn.weight / std
    W = conv.weight * scale.reshape(-1, 1, 1, 1)
    b = bn.bias - bn.running_mean * scale
    if conv.bias is not None:
        b = b + conv.bias * scale
    cconv.weight[:, :, :, :] = W[:, :, :, :]
    cconv.bias[:] = b[:]
    return cconv


PAIRS = (("conv1", "bn1"), ("conv2", "bn2"), ("conv3", "bn3"))


def fuse_model(model: nn.Module) -> nn.Module:
    model.eval()
    for name, module in model.named_modules():
        for conv_name, bn_name in PAIRS:
            conv = getattr(module, conv_name, None)
            bn = getattr(module, bn_name, None)
            if isinstance(conv, nn.Conv2d) and isinstance(bn, nn.BatchNorm2d):
                setattr(module, conv_name, fuse_conv_bn(conv, bn))
                setattr(module, bn_name, nn.Identity())
        downsample = getattr(module, "downsample", None)
        if isinstance(downsample, nn.Sequential) and len(downsample) == 2 \
                and isinstance(downsample[1], nn.BatchNorm2d):
            downsample[0] = fuse_conv_bn(downsample[0], downsample[1])
            downsample[1] = nn.Identity()
    return model
