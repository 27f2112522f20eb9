import torch

from losses import init_loss
from networks import NLayerDiscriminator, ResnetGenerator


class ConditionalGANModel:
    def __init__(self, opt):
        self.opt = opt
        self.netG = ResnetGenerator(ngf=opt.ngf)
        self.netD = NLayerDiscriminator(ndf=opt.ndf, use_sigmoid=False)
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=opt.lr, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=opt.lr, betas=(0.5, 0.999))
        self.discLoss, self.contentLoss = init_loss(opt)
        self.critic_updates = 5 if opt.gan_type == "wgan-gp" else 1

    def set_input(self, blurred, sharp):
        self.real_A = blurred
        self.real_B = sharp

    def forward(self):
        self.fake_B = self.netG(self.real_A)

    def backward_D(self):
        self.loss_D = self.discLoss.get_loss(self.netD, self.real_B, self.fake_B)
        self.loss_D.backward()

    def backward_G(self):
        self.loss_G_GAN = self.discLoss.get_g_loss(self.netD, self.fake_B)
        self.loss_G_Content = self.contentLoss(self.fake_B, self.real_B) * self.opt.lambda_A
        self.loss_G = self.loss_G_GAN + self.loss_G_Content
        self.loss_G.backward()

    def optimize_parameters(self):
        self.forward()
        for _ in range(self.critic_updates):
            self.optimizer_D.zero_grad()
            self.backward_D()
            self.optimizer_D.step()
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()

    def get_current_errors(self):
        return {"D": self.loss_D.item(), "G_GAN": self.loss_G_GAN.item(), "G_L1": self.loss_G_Content.item()}
