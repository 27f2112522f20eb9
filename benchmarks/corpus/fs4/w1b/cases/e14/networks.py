import torch.nn as nn


class ResnetBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.block = nn.Sequential(
            nn.ReflectionPad2d(1), nn.Conv2d(dim, dim, 3), nn.InstanceNorm2d(dim), nn.ReLU(True),
            nn.ReflectionPad2d(1), nn.Conv2d(dim, dim, 3), nn.InstanceNorm2d(dim),
        )

    def forward(self, x):
        return x + self.block(x)


class ResnetGenerator(nn.Module):
    def __init__(self, nc=3, ngf=16, n_blocks=2):
        super().__init__()
        layers = [nn.ReflectionPad2d(3), nn.Conv2d(nc, ngf, 7), nn.InstanceNorm2d(ngf), nn.ReLU(True),
                  nn.Conv2d(ngf, 2 * ngf, 3, stride=2, padding=1), nn.InstanceNorm2d(2 * ngf), nn.ReLU(True)]
        layers += [ResnetBlock(2 * ngf) for _ in range(n_blocks)]
        layers += [nn.ConvTranspose2d(2 * ngf, ngf, 3, stride=2, padding=1, output_padding=1),
                   nn.InstanceNorm2d(ngf), nn.ReLU(True),
                   nn.ReflectionPad2d(3), nn.Conv2d(ngf, nc, 7), nn.Tanh()]
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return (self.model(x) + x).clamp(-1, 1)


class NLayerDiscriminator(nn.Module):
    def __init__(self, nc=3, ndf=16, n_layers=2, use_sigmoid=False):
        super().__init__()
        layers = [nn.Conv2d(nc, ndf, 4, stride=2, padding=1), nn.LeakyReLU(0.2, True)]
        mult = 1
        for n in range(1, n_layers):
            layers += [nn.Conv2d(ndf * mult, ndf * mult * 2, 4, stride=2, padding=1),
                       nn.InstanceNorm2d(ndf * mult * 2), nn.LeakyReLU(0.2, True)]
            mult *= 2
        layers += [nn.Conv2d(ndf * mult, 1, 4, stride=1, padding=1)]
        if use_sigmoid:
            layers += [nn.Sigmoid()]
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)
