import torch
from torch import nn


class BaseNetwork(nn.Module):
    def init_weights(self, init_type="normal", gain=0.02):
        def init_func(m):
            classname = m.__class__.__name__
            if hasattr(m, "weight") and ("Conv" in classname or "Linear" in classname):
                if init_type == "normal":
                    nn.init.normal_(m.weight.data, 0.0, gain)
                elif init_type == "xavier":
                    nn.init.xavier_normal_(m.weight.data, gain=gain)
                elif init_type == "kaiming":
                    nn.init.kaiming_normal_(m.weight.data, a=0, mode="fan_in")
                if hasattr(m, "bias") and m.bias is not None:
                    nn.init.constant_(m.bias.data, 0.0)
        self.apply(init_func)


class ResnetBlock(nn.Module):
    def __init__(self, dim, dilation=1):
        super().__init__()
        self.conv_block = nn.Sequential(
            nn.ReflectionPad2d(dilation),
            nn.Conv2d(dim, dim, 3, padding=0, dilation=dilation),
            nn.InstanceNorm2d(dim, track_running_stats=False),
            nn.ReLU(True),
            nn.ReflectionPad2d(1),
            nn.Conv2d(dim, dim, 3, padding=0),
            nn.InstanceNorm2d(dim, track_running_stats=False),
        )

    def forward(self, x):
        return x + self.conv_block(x)


class EdgeGenerator(BaseNetwork):
    def __init__(self, residual_blocks=2, ch=16):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.ReflectionPad2d(3), nn.Conv2d(3, ch, 7), nn.InstanceNorm2d(ch), nn.ReLU(True),
            nn.Conv2d(ch, ch * 2, 4, stride=2, padding=1), nn.InstanceNorm2d(ch * 2), nn.ReLU(True),
        )
        self.middle = nn.Sequential(*[ResnetBlock(ch * 2, 2) for _ in range(residual_blocks)])
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(ch * 2, ch, 4, stride=2, padding=1), nn.InstanceNorm2d(ch),
            nn.ReLU(True), nn.ReflectionPad2d(3), nn.Conv2d(ch, 1, 7),
        )
        self.init_weights()

    def forward(self, x):
        return torch.sigmoid(self.decoder(self.middle(self.encoder(x))))


class Discriminator(BaseNetwork):
    def __init__(self, in_channels, ch=16, use_sigmoid=True):
        super().__init__()
        self.use_sigmoid = use_sigmoid
        self.conv1 = nn.Sequential(nn.Conv2d(in_channels, ch, 4, 2, 1), nn.LeakyReLU(0.2, True))
        self.conv2 = nn.Sequential(nn.Conv2d(ch, ch * 2, 4, 2, 1), nn.LeakyReLU(0.2, True))
        self.conv3 = nn.Sequential(nn.Conv2d(ch * 2, ch * 4, 4, 1, 1), nn.LeakyReLU(0.2, True))
        self.conv4 = nn.Sequential(nn.Conv2d(ch * 4, 1, 4, 1, 1))
        self.init_weights()

    def forward(self, x):
        c1 = self.conv1(x)
        c2 = self.conv2(c1)
        c3 = self.conv3(c2)
        out = self.conv4(c3)
        if self.use_sigmoid:
            out = torch.sigmoid(out)
        return out, [c1, c2, c3]
