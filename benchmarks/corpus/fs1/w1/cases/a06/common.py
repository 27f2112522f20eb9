import torch.nn as nn


class Swish(nn.Module):
    def forward(self, x):
        return x * x.sigmoid()


ACTIVATIONS = {
    "relu": lambda: nn.ReLU(inplace=True),
    "relu6": lambda: nn.ReLU6(inplace=True),
    "swish": lambda: Swish(),
    "hswish": lambda: nn.Hardswish(),
}


def get_activation_layer(activation):
    if isinstance(activation, str):
        return ACTIVATIONS[activation]()
    return activation()


class ConvBlock(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, activation):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)
        self.activ = get_activation_layer(activation) if activation else None

    def forward(self, x):
        x = self.bn(self.conv(x))
        if self.activ is not None:
            x = self.activ(x)
        return x


def conv1x1_block(in_channels, out_channels, stride=1, activation=None):
    return ConvBlock(in_channels, out_channels, 1, stride, 0, activation)


def conv3x3_block(in_channels, out_channels, stride=1, padding=1, activation="relu"):
    return ConvBlock(in_channels, out_channels, 3, stride, padding, activation)
