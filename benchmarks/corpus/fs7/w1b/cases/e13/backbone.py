import torch
import torch.nn as nn

from layers import Convolutional


class CSPBlock(nn.Module):
    def __init__(self, in_channels, out_channels, hidden_channels=None):
        super().__init__()
        if hidden_channels is None:
            hidden_channels = out_channels
        self.block = nn.Sequential(
            Convolutional(in_channels, hidden_channels, 1, activate=self.activate),
            Convolutional(hidden_channels, out_channels, 3, activate=self.activate),
        )

    def forward(self, x):
        residual = x
        out = self.block(x)
        out += residual
        return out


class CSPStage(nn.Module):
    def __init__(self, in_channels, out_channels, num_blocks):
        super().__init__()
        self.downsample_conv = Convolutional(in_channels, out_channels, 3, stride=2,
                                             activate=CSPBlock.activate)
        self.split_conv0 = Convolutional(out_channels, out_channels // 2, 1, activate=CSPBlock.activate)
        self.split_conv1 = Convolutional(out_channels, out_channels // 2, 1, activate=CSPBlock.activate)
        self.blocks_conv = nn.Sequential(
            *[CSPBlock(out_channels // 2, out_channels // 2) for _ in range(num_blocks)],
            Convolutional(out_channels // 2, out_channels // 2, 1, activate=CSPBlock.activate),
        )
        self.concat_conv = Convolutional(out_channels, out_channels, 1, activate=CSPBlock.activate)

    def forward(self, x):
        x = self.downsample_conv(x)
        x0 = self.split_conv0(x)
        x1 = self.blocks_conv(self.split_conv1(x))
        return self.concat_conv(torch.cat([x0, x1], dim=1))


class CSPDarknet53(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        CSPBlock.activate = cfg["activate"]
        stem = cfg["stem_channels"]
        chans = [stem] + cfg["feature_channels"]
        self.stem_conv = Convolutional(3, stem, 3, activate=CSPBlock.activate)
        self.stages = nn.ModuleList(
            CSPStage(chans[i], chans[i + 1], n) for i, n in enumerate(cfg["num_blocks"]))

    def forward(self, x):
        x = self.stem_conv(x)
        features = []
        for stage in self.stages:
            x = stage(x)
            features.append(x)
        return features
