import torch.nn.functional as F
from torch import nn

from module import ConvModule


class FPN(nn.Module):
    def __init__(self, in_channels, out_channels, num_outs, start_level=0,
                 norm_cfg=None, activation=None):
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.num_ins = len(in_channels)
        self.num_outs = num_outs
        self.start_level = start_level
        self.lateral_convs = nn.ModuleList()
        for i in range(self.start_level, self.num_ins):
            self.lateral_convs.append(
                ConvModule(in_channels[i], out_channels, 1, norm_cfg=norm_cfg,
                           activation=activation))
        self.init_weights()

    def init_weights(self):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.xavier_uniform_(m.weight)
                if m.bias is not None:
                    nn.init.zeros_(m.bias)

    def forward(self, inputs):
        assert len(inputs) == len(self.in_channels)
        laterals = [
            lateral_conv(inputs[i + self.start_level])
            for i, lateral_conv in enumerate(self.lateral_convs)
        ]
        used_backbone_levels = len(laterals)
        for i in range(used_backbone_levels - 1, 0, -1):
            laterals[i - 1] += F.interpolate(laterals[i], size=laterals[i - 1].shape[2:],
                                             mode="bilinear", align_corners=False)
        outs = [laterals[i] for i in range(used_backbone_levels)]
        return tuple(outs)
