import torch
import torch.nn as nn
import torch.nn.functional as F


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.lambd, None


def conv_block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DomainClassifier(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(channels, 32, 3, stride=2, padding=1),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(32, 1),
        )

    def forward(self, x, lambd=1.0):
        x = GradReverse.apply(x, lambd)
        return self.net(x)


class AdaptiveUNet(nn.Module):
    def __init__(self, in_ch=3, n_classes=2, width=16):
        super().__init__()
        self.down1 = conv_block(in_ch, width)
        self.down2 = conv_block(width, width * 2)
        self.down3 = conv_block(width * 2, width * 4)
        self.up2 = conv_block(width * 4 + width * 2, width * 2)
        self.up1 = conv_block(width * 2 + width, width)
        self.out = nn.Conv2d(width, n_classes, 1)
        self.adapt = DomainClassifier(width * 4)

    def downsample(self, x):
        x1 = self.down1(x)
        x2 = self.down2(F.max_pool2d(x1, 2))
        x3 = self.down3(F.max_pool2d(x2, 2))
        return x1, x2, x3

    def upsample(self, x3, x1, x2):
        y = F.interpolate(x3, scale_factor=2, mode="nearest")
        y = self.up2(torch.cat([y, x2], dim=1))
        y = F.interpolate(y, scale_factor=2, mode="nearest")
        y = self.up1(torch.cat([y, x1], dim=1))
        return self.out(y)

    def forward(self, x, grl_lambda=1.0):
        x1, x2, x3 = self.downsample(x)
        seg = self.upsample(x3, x1, x2)
        dom = self.adapt(x3)
        return seg, dom
