import torch
import torch.nn as nn
import torch.nn.functional as F

import common


class make_dense(nn.Module):
    def __init__(self, n_channels, n_feats, i):
        super().__init__()
        s = i + 1 if i < 3 else i - 2 * (i - 3)
        self.conv_1_1 = nn.Conv2d(n_channels, n_feats, 1)
        self.conv_3_1 = nn.Conv2d(n_feats, n_feats, 3, padding=s, dilation=s)
        self.conv_3_2 = nn.Conv2d(n_feats, n_feats, 3, padding=s, dilation=s)
        self.conv_1_2 = nn.Conv2d(n_feats * 2, n_feats, 1)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        out1x1 = self.relu(self.conv_1_1(x))
        input_1 = self.relu(self.conv_3_1(out1x1))
        input_2 = self.relu(self.conv_3_2(input_1))
        output = self.relu(self.conv_1_2(torch.cat([input_1, input_2], 1)))
        return torch.cat([output, x], 1)


class DRB(nn.Module):
    def __init__(self, n_channels, n_denselayer, n_feats):
        super().__init__()
        modules = []
        channels = n_channels
        for i in range(n_denselayer):
            modules.append(make_dense(channels, n_feats, i))
            channels += n_feats
        self.dense_layers = nn.Sequential(*modules)
        self.conv_1x1 = nn.Conv2d(channels, n_feats, 1, bias=False)

    def forward(self, x):
        out = self.conv_1x1(self.dense_layers(x))
        return x + out


class CSB(nn.Module):
    """Cross-scale block: mixes the four spatial quadrants along the channel axis."""

    def __init__(self, n_feats):
        super().__init__()
        self.conv1 = nn.Conv2d(n_feats * 4, n_feats * 4, 1, bias=False)

    def forward(self, x):
        h2, w2 = x.size(2) // 2, x.size(3) // 2
        f_all = torch.cat([x[:, :, :h2, :w2], x[:, :, h2:, :w2],
                           x[:, :, :h2, w2:], x[:, :, h2:, w2:]], 1)
        f_all = self.conv1(f_all)
        c = f_all.size(1) // 4
        out = x
        out[:, :, :h2, :w2] = f_all[:, 0:c]
        out[:, :, h2:, :w2] = f_all[:, c:2 * c]
        out[:, :, :h2, w2:] = f_all[:, 2 * c:3 * c]
        out[:, :, h2:, w2:] = f_all[:, 3 * c:]
        return out


class FirstOrder(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        first_c = torch.sigmoid(self.pool(x)) * x
        xh = x.permute(0, 2, 1, 3)
        first_h = (torch.sigmoid(self.pool(xh)) * xh).permute(0, 2, 1, 3)
        xw = x.permute(0, 3, 2, 1)
        first_w = (torch.sigmoid(self.pool(xw)) * xw).permute(0, 3, 2, 1)
        return first_c + first_h + first_w + x


class MCAB(nn.Module):
    def __init__(self, n_channels, n_denselayer, n_feats):
        super().__init__()
        self.drb = DRB(n_channels, n_denselayer, n_feats)
        self.csb = CSB(n_feats)
        self.first = FirstOrder()
        self.conv3 = nn.Conv2d(n_feats, n_feats, 3, padding=1, bias=False)

    def forward(self, x):
        down_b = self.drb(x)
        top_b = self.csb(x)
        top_b = torch.sigmoid(self.conv3(self.first(top_b)))
        return down_b * top_b


class TSAN(nn.Module):
    def __init__(self, args):
        super().__init__()
        n_feats = args["n_feats"]
        n_colors = args["n_colors"]
        conv = common.default_conv
        rgb_mean = (0.4488, 0.4371, 0.4040)
        rgb_std = (1.0, 1.0, 1.0)
        self.sub_mean = common.MeanShift(args["rgb_range"], rgb_mean, rgb_std)
        self.add_mean = common.MeanShift(args["rgb_range"], rgb_mean, rgb_std, 1)
        self.first_conv = nn.Conv2d(n_colors, n_feats, 1)
        self.relu = nn.ReLU(inplace=True)
        self.body = nn.ModuleList(MCAB(n_feats, args["n_denselayer"], n_feats)
                                  for _ in range(args["n_blocks"]))
        self.tail = nn.Sequential(nn.Conv2d(n_feats * args["n_blocks"], n_feats, 1),
                                  conv(n_feats, n_feats, 3))
        self.up = common.Upsampler(conv, args["scale"], n_feats)
        self.output = conv(n_feats, n_colors, 3)

    def forward(self, x):
        x = self.sub_mean(x)
        first_out = self.relu(self.first_conv(x))
        feats = []
        out = first_out
        for block in self.body:
            out = block(out)
            feats.append(out)
        out = self.tail(torch.cat(feats, 1)) + first_out
        out = self.output(self.up(out))
        return self.add_mean(out)
