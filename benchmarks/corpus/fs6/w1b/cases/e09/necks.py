import torch.nn as nn
import torch.nn.functional as F

NECKS = {}
ACTIVATIONS = {"ReLU": nn.ReLU, "LeakyReLU": nn.LeakyReLU, "SiLU": nn.SiLU}


def register_neck(cls):
    NECKS[cls.__name__] = cls
    return cls


def build_neck(cfg):
    cfg = dict(cfg)
    return NECKS[cfg.pop("type")](**cfg)


def build_activation(cfg, inplace):
    if cfg is None:
        return None
    cfg = dict(cfg)
    layer = ACTIVATIONS[cfg.pop("type")]
    cfg.setdefault("inplace", inplace)
    return layer(**cfg)


class ConvModule(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 norm=False, act_cfg=None, inplace=True):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride,
                              padding=padding, bias=not norm)
        self.bn = nn.BatchNorm2d(out_channels) if norm else None
        self.activate = build_activation(act_cfg, inplace)

    def forward(self, x):
        x = self.conv(x)
        if self.bn is not None:
            x = self.bn(x)
        if self.activate is not None:
            x = self.activate(x)
        return x


@register_neck
class FPN(nn.Module):
    def __init__(self, in_channels, out_channels, num_outs, norm=False, act_cfg=None):
        super().__init__()
        self.in_channels = in_channels
        self.num_outs = num_outs
        self.lateral_convs = nn.ModuleList()
        self.fpn_convs = nn.ModuleList()
        for c in in_channels:
            self.lateral_convs.append(
                ConvModule(c, out_channels, 1, norm=norm, act_cfg=act_cfg, inplace=False))
            self.fpn_convs.append(
                ConvModule(out_channels, out_channels, 3, padding=1, norm=norm,
                           act_cfg=act_cfg, inplace=False))

    def top_down(self, inputs):
        laterals = [conv(inputs[i]) for i, conv in enumerate(self.lateral_convs)]
        for i in range(len(laterals) - 1, 0, -1):
            prev_shape = laterals[i - 1].shape[2:]
            laterals[i - 1] = laterals[i - 1] + F.interpolate(
                laterals[i], size=prev_shape, mode="nearest")
        return laterals

    def forward(self, inputs):
        laterals = self.top_down(inputs)
        outs = [self.fpn_convs[i](laterals[i]) for i in range(len(laterals))]
        while len(outs) < self.num_outs:
            outs.append(F.max_pool2d(outs[-1], 1, stride=2))
        return tuple(outs)


@register_neck
class PAFPN(FPN):
    def __init__(self, in_channels, out_channels, num_outs, norm=False, act_cfg=None):
        super().__init__(in_channels, out_channels, num_outs, norm=norm, act_cfg=act_cfg)
        self.downsample_convs = nn.ModuleList()
        self.pafpn_convs = nn.ModuleList()
        for _ in range(1, len(in_channels)):
            self.downsample_convs.append(
                ConvModule(out_channels, out_channels, 3, stride=2, padding=1, norm=norm,
                           act_cfg=act_cfg, inplace=False))
            self.pafpn_convs.append(
                ConvModule(out_channels, out_channels, 3, padding=1, norm=norm,
                           act_cfg=act_cfg, inplace=False))

    def forward(self, inputs):
        assert len(inputs) == len(self.in_channels)
        laterals = self.top_down(inputs)
        used_levels = len(laterals)

        inter_outs = [self.fpn_convs[i](laterals[i]) for i in range(used_levels)]
        for i in range(0, used_levels - 1):
            inter_outs[i + 1] += self.downsample_convs[i](inter_outs[i])

        outs = [inter_outs[0]]
        outs.extend(self.pafpn_convs[i - 1](inter_outs[i]) for i in range(1, used_levels))
        while len(outs) < self.num_outs:
            outs.append(F.max_pool2d(outs[-1], 1, stride=2))
        return tuple(outs)
