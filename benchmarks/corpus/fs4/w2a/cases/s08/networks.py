import torch.nn as nn


class ResnetBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.conv_block = nn.Sequential(
            nn.Conv2d(dim, dim, 3, padding=1), nn.InstanceNorm2d(dim), nn.ReLU(True),
            nn.Conv2d(dim, dim, 3, padding=1), nn.InstanceNorm2d(dim),
        )

    def forward(self, x):
        return x + self.conv_block(x)


def define_G(input_nc, output_nc, ngf=8, n_blocks=2):
    layers = [nn.Conv2d(input_nc, ngf, 3, padding=1), nn.InstanceNorm2d(ngf), nn.ReLU(True)]
    layers += [ResnetBlock(ngf) for _ in range(n_blocks)]
    layers += [nn.Conv2d(ngf, output_nc, 3, padding=1), nn.Tanh()]
    return nn.Sequential(*layers)


def define_D(input_nc, ndf=8):
    return nn.Sequential(
        nn.Conv2d(input_nc, ndf, 4, stride=2, padding=1), nn.LeakyReLU(0.2, True),
        nn.Conv2d(ndf, ndf * 2, 4, stride=2, padding=1), nn.InstanceNorm2d(ndf * 2), nn.LeakyReLU(0.2, True),
        nn.Conv2d(ndf * 2, 1, 3, padding=1),
    )


def define_C(input_nc, nclasses, ndf=8):
    return nn.Sequential(
        nn.Conv2d(input_nc, ndf, 3, stride=2, padding=1), nn.ReLU(True),
        nn.Conv2d(ndf, ndf * 2, 3, stride=2, padding=1), nn.ReLU(True),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(ndf * 2, nclasses),
    )


class GANLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.MSELoss()

    def forward(self, prediction, target_is_real):
        target = prediction.new_ones(prediction.shape) if target_is_real else prediction.new_zeros(prediction.shape)
        return self.loss(prediction, target)
