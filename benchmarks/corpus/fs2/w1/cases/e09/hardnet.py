import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvLayer(nn.Sequential):
    def __init__(self, in_channels, out_channels, kernel=3, stride=1):
        super().__init__()
        self.add_module("conv", nn.Conv2d(in_channels, out_channels, kernel, stride, kernel // 2, bias=False))
        self.add_module("norm", nn.BatchNorm2d(out_channels))
        self.add_module("relu", nn.ReLU(inplace=True))


def get_link(layer, base_ch, growth_rate, grmul):
    if layer == 0:
        return base_ch, 0, []
    out_channels = growth_rate
    link = []
    for i in range(10):
        dv = 2 ** i
        if layer % dv == 0:
            k = layer - dv
            link.append(k)
            if i > 0:
                out_channels *= grmul
    out_channels = int(int(out_channels + 1) / 2) * 2
    in_channels = 0
    for i in link:
        ch, _, _ = get_link(i, base_ch, growth_rate, grmul)
        in_channels += ch
    return out_channels, in_channels, link


class HarDBlock(nn.Module):
    def __init__(self, in_channels, growth_rate, grmul, n_layers):
        super().__init__()
        self.links = []
        layers = []
        self.out_channels = 0
        for i in range(n_layers):
            outch, inch, link = get_link(i + 1, in_channels, growth_rate, grmul)
            self.links.append(link)
            layers.append(ConvLayer(inch, outch))
            if (i % 2 == 0) or (i == n_layers - 1):
                self.out_channels += outch
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        layers_ = [x]
        for layer, link in zip(self.layers, self.links):
            tin = [layers_[i] for i in link]
            x = torch.cat(tin, 1) if len(tin) > 1 else tin[0]
            layers_.append(layer(x))
        t = len(layers_)
        out = [layers_[i] for i in range(t) if (i == t - 1) or (i % 2 == 1)]
        return torch.cat(out, 1)


class HarDBlockV2(nn.Module):
    """Deploy form: every conv reads the block input through one merged conv per source."""

    def __init__(self, blk: HarDBlock, in_channels):
        super().__init__()
        self.links = blk.links
        self.out_partition = {}
        for i, link in enumerate(blk.links):
            outch = blk.layers[i].conv.out_channels
            for j in link:
                self.out_partition.setdefault(j, []).append((i, outch))
        self.conv_layers = nn.ModuleList()
        self.bnrelu_layers = nn.ModuleList()
        for j in range(len(blk.links)):
            src_ch = in_channels if j == 0 else blk.layers[j - 1].conv.out_channels
            total = sum(ch for _, ch in self.out_partition.get(j, []))
            self.conv_layers.append(nn.Conv2d(src_ch, max(total, 1), 3, 1, 1, bias=False))
        for layer in blk.layers:
            self.bnrelu_layers.append(nn.Sequential(nn.BatchNorm2d(layer.conv.out_channels), nn.ReLU()))

    def transform(self, blk: HarDBlock, in_channels):
        for j, conv in enumerate(self.conv_layers):
            start = 0
            for i, outch in self.out_partition.get(j, []):
                w_src = blk.layers[i].conv.weight
                offset = 0
                for k in blk.links[i]:
                    if k == j:
                        break
                    offset += in_channels if k == 0 else blk.layers[k - 1].conv.out_channels
                in_ch = conv.in_channels
                conv.weight[start:start + outch, :, :, :] = w_src[:, offset:offset + in_ch, :, :]
                start += outch
        for bnrelu, layer in zip(self.bnrelu_layers, blk.layers):
            bnrelu[0].load_state_dict(layer.norm.state_dict())


class HarDNetSeg(nn.Module):
    def __init__(self, n_classes=4, growth_rate=8, n_layers=4):
        super().__init__()
        self.stem = ConvLayer(3, 16, stride=2)
        self.block = HarDBlock(16, growth_rate, 1.7, n_layers)
        self.head = nn.Conv2d(self.block.out_channels, n_classes, 1)
        self.deploy_block = None

    def forward(self, x):
        size = x.shape[-2:]
        out = self.head(self.block(self.stem(x)))
        return F.interpolate(out, size=size, mode="bilinear", align_corners=False)

    def v2_transform(self):
        self.deploy_block = HarDBlockV2(self.block, 16)
        self.deploy_block.transform(self.block, 16)
