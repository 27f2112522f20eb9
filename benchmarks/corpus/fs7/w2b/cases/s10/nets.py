import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBlock(nn.Module):
    def __init__(self, in_channels, out_channels, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, stride, 1, bias=False)
        self.bn = nn.BatchNorm2d(out_channels, momentum=0.01, eps=1e-3)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class SeparableConvBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.depthwise_conv = nn.Conv2d(channels, channels, 3, 1, 1, groups=channels, bias=False)
        self.pointwise_conv = nn.Conv2d(channels, channels, 1)
        self.bn = nn.BatchNorm2d(channels, momentum=0.01, eps=1e-3)

    def forward(self, x):
        return self.bn(self.pointwise_conv(self.depthwise_conv(x)))


class Backbone(nn.Module):
    def __init__(self, channels=(16, 24, 40)):
        super().__init__()
        self.stem = ConvBlock(3, channels[0], 2)
        self.stage3 = ConvBlock(channels[0], channels[0], 2)
        self.stage4 = ConvBlock(channels[0], channels[1], 2)
        self.stage5 = ConvBlock(channels[1], channels[2], 2)

    def forward(self, x):
        p3 = self.stage3(self.stem(x))
        p4 = self.stage4(p3)
        p5 = self.stage5(p4)
        return p3, p4, p5


class BiFPN(nn.Module):
    def __init__(self, num_channels, conv_channels, epsilon=1e-4):
        super().__init__()
        self.epsilon = epsilon
        self.p3_down_channel = nn.Sequential(nn.Conv2d(conv_channels[0], num_channels, 1),
                                             nn.BatchNorm2d(num_channels, momentum=0.01, eps=1e-3))
        self.p4_down_channel = nn.Sequential(nn.Conv2d(conv_channels[1], num_channels, 1),
                                             nn.BatchNorm2d(num_channels, momentum=0.01, eps=1e-3))
        self.p5_down_channel = nn.Sequential(nn.Conv2d(conv_channels[2], num_channels, 1),
                                             nn.BatchNorm2d(num_channels, momentum=0.01, eps=1e-3))
        self.conv4_up = SeparableConvBlock(num_channels)
        self.conv3_up = SeparableConvBlock(num_channels)
        self.conv4_down = SeparableConvBlock(num_channels)
        self.conv5_down = SeparableConvBlock(num_channels)

        self.p4_w1 = nn.Parameter(torch.ones(2, dtype=torch.float32))
        self.p3_w1 = nn.Parameter(torch.ones(2, dtype=torch.float32))
        self.p4_w2 = nn.Parameter(torch.ones(3, dtype=torch.float32))
        self.p5_w2 = nn.Parameter(torch.ones(2, dtype=torch.float32))
        self.swish = nn.SiLU()

    def _fuse(self, w, feats):
        w = F.relu(w)
        weight = w / (torch.sum(w, dim=0) + self.epsilon)
        return self.swish(sum(weight[i] * f for i, f in enumerate(feats)))

    def forward(self, inputs):
        p3, p4, p5 = inputs
        p3_in = self.p3_down_channel(p3)
        p4_in = self.p4_down_channel(p4)
        p5_in = self.p5_down_channel(p5)

        p4_up = self.conv4_up(self._fuse(self.p4_w1, [p4_in, F.interpolate(p5_in, scale_factor=2)]))
        p3_out = self.conv3_up(self._fuse(self.p3_w1, [p3_in, F.interpolate(p4_up, scale_factor=2)]))
        p4_out = self.conv4_down(self._fuse(self.p4_w2, [p4_in, p4_up, F.max_pool2d(p3_out, 2)]))
        p5_out = self.conv5_down(self._fuse(self.p5_w2, [p5_in, F.max_pool2d(p4_out, 2)]))
        return p3_out, p4_out, p5_out


class Head(nn.Module):
    def __init__(self, in_channels, num_outputs):
        super().__init__()
        self.conv = SeparableConvBlock(in_channels)
        self.header = nn.Conv2d(in_channels, num_outputs, 1)

    def forward(self, feats):
        outs = [self.header(F.silu(self.conv(f))).flatten(2) for f in feats]
        return torch.cat(outs, dim=2).transpose(1, 2)


class EfficientDetBackbone(nn.Module):
    def __init__(self, num_classes=3, fpn_num_filters=32):
        super().__init__()
        self.backbone_net = Backbone()
        self.bifpn = BiFPN(fpn_num_filters, (16, 24, 40))
        self.regressor = Head(fpn_num_filters, 4)
        self.classifier = Head(fpn_num_filters, num_classes)

    def forward(self, x):
        feats = self.bifpn(self.backbone_net(x))
        return self.regressor(feats), self.classifier(feats)
