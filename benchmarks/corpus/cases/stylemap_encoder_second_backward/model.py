import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, latent=16, style_ch=8):
        super().__init__()
        self.mapping = nn.Sequential(nn.Linear(latent, 64), nn.LeakyReLU(0.2), nn.Linear(64, style_ch * 16))
        self.synthesis = nn.Sequential(nn.ConvTranspose2d(style_ch, 16, 4, 2, 1), nn.LeakyReLU(0.2),
                                       nn.Conv2d(16, 3, 3, padding=1), nn.Tanh())
        self.style_ch = style_ch

    def forward(self, z):
        stylecode = self.mapping(z).view(-1, self.style_ch, 4, 4)
        return self.synthesis(stylecode), stylecode


class Encoder(nn.Module):
    def __init__(self, style_ch=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(16, style_ch, 3, padding=1))

    def forward(self, img):
        return self.net(img)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 4, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(16 * 16, 1))

    def forward(self, img):
        return self.net(img)


class StyleMapGAN(nn.Module):
    def __init__(self, latent=16):
        super().__init__()
        self.generator, self.encoder, self.discriminator = Generator(latent), Encoder(), Discriminator()
        self.latent = latent

    def forward(self, real_img, mode):
        if mode == "G":
            z = torch.randn(real_img.shape[0], self.latent)
            fake_img, stylecode = self.generator(z)
            adv_loss = F.softplus(-self.discriminator(fake_img)).mean()
            w_rec_loss = F.mse_loss(self.encoder(fake_img), stylecode)
            return adv_loss, w_rec_loss, stylecode
        fake_img, _ = self.generator(torch.randn(real_img.shape[0], self.latent))
        real_pred, fake_pred = self.discriminator(real_img), self.discriminator(fake_img.detach())
        return F.softplus(-real_pred).mean() + F.softplus(fake_pred).mean()
