import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function


class simple_block(nn.Module):
    def __init__(self, in_channels, out_channels, use_bn):
        super().__init__()
        self.use_bn = use_bn
        self.conv1 = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1)
        self.bn1 = nn.InstanceNorm2d(out_channels)
        self.activation = nn.ReLU()

    def forward(self, x):
        out = self.conv1(x)
        if self.use_bn:
            out = self.bn1(out)
        return self.activation(out)


class Simple_Unet(nn.Module):
    def __init__(self, input_ch, out_ch, use_bn, enc_nf, dec_nf):
        super().__init__()
        self.down = nn.MaxPool2d(2, 2)
        self.block0 = simple_block(input_ch, enc_nf[0], use_bn)
        self.block1 = simple_block(enc_nf[0], enc_nf[1], use_bn)
        self.block2 = simple_block(enc_nf[1], dec_nf[0], use_bn)
        self.block3 = simple_block(dec_nf[0] + enc_nf[0], dec_nf[1], use_bn)
        self.conv = nn.Conv2d(dec_nf[1], out_ch, kernel_size=3, padding=1)

    def forward(self, x_in):
        x0 = self.block0(x_in)
        x1 = self.block1(self.down(x0))
        x = self.block2(x1)
        x = F.interpolate(x, scale_factor=2, mode="nearest")
        x = self.block3(torch.cat([x, x0], 1))
        return self.conv(x)


def Simple_Decoder(input_ch, out_ch):
    return nn.Sequential(nn.Conv2d(input_ch, out_ch, kernel_size=3, padding=1), nn.Sigmoid())


class EnforcePrior(Function):
    @staticmethod
    def forward(ctx, x, prior, eps=1e-8):
        # regions where the atlas has zero probability must never be sampled
        forbidden_regs = (prior < eps).float()
        ctx.save_for_backward(forbidden_regs)
        return x - 1e12 * forbidden_regs

    @staticmethod
    def backward(ctx, grad):
        (forbidden_regs,) = ctx.saved_tensors
        return grad * (forbidden_regs == 0).float()


def enforcer(prior, x):
    return EnforcePrior.apply(x, prior)
