import torch.nn as nn

from common import conv1x1_block, conv3x3_block, get_activation_layer


class DwsConvBlock(nn.Module):
    """Pre-activated depthwise separable convolution."""

    def __init__(self, in_channels, out_channels, activation):
        super().__init__()
        self.activ = get_activation_layer(activation) if activation else None
        self.dw_conv = nn.Conv2d(in_channels, in_channels, 3, padding=1, groups=in_channels,
                                 bias=False)
        self.pw_conv = nn.Conv2d(in_channels, out_channels, 1, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x):
        if self.activ is not None:
            x = self.activ(x)
        return self.bn(self.pw_conv(self.dw_conv(x)))


class XceptionUnit(nn.Module):
    def __init__(self, in_channels, out_channels, stride, reps, activation, start_with_activ=True):
        super().__init__()
        self.resize_identity = (in_channels != out_channels) or (stride != 1)
        if self.resize_identity:
            self.identity_conv = conv1x1_block(in_channels, out_channels, stride=stride)
        self.body = nn.Sequential()
        for i in range(reps):
            cin = in_channels if i == 0 else out_channels
            activ = activation if (i > 0 or start_with_activ) else None
            self.body.add_module(f"block{i + 1}", DwsConvBlock(cin, out_channels, activ))
        if stride != 1:
            self.body.add_module("pool", nn.MaxPool2d(3, stride=stride, padding=1))

    def forward(self, x):
        if self.resize_identity:
            identity = self.identity_conv(x)
        else:
            identity = x.clone()
        x = self.body(x)
        return x + identity


class Xception(nn.Module):
    def __init__(self, channels, activation="relu", in_channels=3, num_classes=10):
        super().__init__()
        self.features = nn.Sequential()
        self.features.add_module("init_block", nn.Sequential(
            conv3x3_block(in_channels, 16, stride=2, activation=activation),
            conv3x3_block(16, 32, activation=activation)))
        in_channels = 32
        for i, stage_channels in enumerate(channels):
            stage = nn.Sequential()
            for j, out_channels in enumerate(stage_channels):
                stage.add_module(f"unit{j + 1}", XceptionUnit(
                    in_channels, out_channels, stride=2 if j == 0 else 1,
                    reps=2 if j == 0 else 3, activation=activation,
                    start_with_activ=(i != 0 or j != 0)))
                in_channels = out_channels
            self.features.add_module(f"stage{i + 1}", stage)
        self.features.add_module("final_activ", get_activation_layer(activation))
        self.features.add_module("pool", nn.AdaptiveAvgPool2d(1))
        self.output = nn.Linear(in_channels, num_classes)

    def forward(self, x):
        x = self.features(x).flatten(1)
        return self.output(x)


def build_model(cfg):
    return Xception(cfg["channels"], activation=cfg["activation"],
                    num_classes=cfg["num_classes"])
