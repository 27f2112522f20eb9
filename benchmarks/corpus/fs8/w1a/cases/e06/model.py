import torch.nn.functional as F
from torch import nn
from torchvision.ops import MLP, Conv2dNormActivation


class Encoder(nn.Module):
    def __init__(self, widths=(32, 64, 128)):
        super().__init__()
        layers, cin = [], 3
        for w in widths:
            layers.append(Conv2dNormActivation(cin, w, kernel_size=3, stride=2))
            cin = w
        self.body = nn.Sequential(*layers)
        self.out_dim = cin

    def forward(self, x):
        return F.adaptive_avg_pool2d(self.body(x), 1).flatten(1)


class SimCLR(nn.Module):
    def __init__(self, proj_hidden=256, proj_dim=64, proj_dropout=0.0):
        super().__init__()
        self.encoder = Encoder()
        self.projector = MLP(self.encoder.out_dim, [proj_hidden, proj_hidden, proj_dim],
                             norm_layer=None, inplace=True, dropout=proj_dropout)

    def forward(self, x):
        h = self.encoder(x)
        return h, self.projector(h)
