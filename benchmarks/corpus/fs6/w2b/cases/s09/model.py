import torch.nn as nn


def _head(in_ch, out_ch, head_conv):
    return nn.Sequential(
        nn.Conv2d(in_ch, head_conv, 3, padding=1, bias=True),
        nn.ReLU(inplace=True),
        nn.Conv2d(head_conv, out_ch, 1, bias=True),
    )


class PoseNet(nn.Module):
    def __init__(self, heads, head_conv=32, width=32):
        super().__init__()
        self.base = nn.Sequential(
            nn.Conv2d(3, width, 3, stride=2, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
            nn.Conv2d(width, width, 3, stride=2, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
        )
        self.heads = heads
        for name, ch in heads.items():
            setattr(self, name, _head(width, ch, head_conv))
        self.hm[-1].bias.data.fill_(-2.19)

    def forward(self, x):
        feat = self.base(x)
        return [{name: getattr(self, name)(feat) for name in self.heads}]


def create_model(opt):
    heads = {"hm": opt["num_classes"], "wh": 4, "reg": 2, "id": opt["reid_dim"]}
    return PoseNet(heads, head_conv=opt["head_conv"])
