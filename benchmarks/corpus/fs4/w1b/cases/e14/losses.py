import torch
import torch.nn as nn


class DiscLoss:
    def __init__(self):
        self.criterion = nn.BCEWithLogitsLoss()

    def get_g_loss(self, net, fake_B):
        pred_fake = net(fake_B)
        return self.criterion(pred_fake, torch.ones_like(pred_fake))

    def get_loss(self, net, real_B, fake_B):
        pred_fake = net(fake_B.detach())
        pred_real = net(real_B)
        return 0.5 * (self.criterion(pred_fake, torch.zeros_like(pred_fake))
                      + self.criterion(pred_real, torch.ones_like(pred_real)))


class DiscLossWGANGP:
    def __init__(self, lambda_gp=10.0):
        self.lambda_gp = lambda_gp

    def get_g_loss(self, net, fake_B):
        return -net(fake_B).mean()

    def calc_gradient_penalty(self, net, real_B, fake_B):
        alpha = torch.rand(real_B.size(0), 1, 1, 1).expand_as(real_B)
        interpolates = alpha * real_B + (1 - alpha) * fake_B
        interpolates.requires_grad_(True)
        disc_interpolates = net(interpolates)
        gradients = torch.autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                                        grad_outputs=torch.ones_like(disc_interpolates),
                                        create_graph=True, retain_graph=True)[0]
        gradients = gradients.reshape(gradients.size(0), -1)
        return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * self.lambda_gp

    def get_loss(self, net, real_B, fake_B):
        d_fake = net(fake_B.detach()).mean()
        d_real = net(real_B).mean()
        return d_fake - d_real + self.calc_gradient_penalty(net, real_B, fake_B)


DISC_LOSSES = {"gan": DiscLoss, "wgan-gp": DiscLossWGANGP}


def init_loss(opt):
    content_loss = nn.L1Loss()
    disc_loss = DISC_LOSSES[opt.gan_type]()
    return disc_loss, content_loss
