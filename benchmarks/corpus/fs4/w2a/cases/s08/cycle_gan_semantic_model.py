import itertools

import torch
import torch.nn as nn

import networks


class CycleGANSemanticModel:
    def __init__(self, opt):
        self.opt = opt
        self.netG_A = networks.define_G(opt.input_nc, opt.output_nc)
        self.netG_B = networks.define_G(opt.output_nc, opt.input_nc)
        self.netD_B = networks.define_D(opt.output_nc)
        self.netf_s = networks.define_C(opt.output_nc, opt.semantic_nclasses)

        self.criterionGAN = networks.GANLoss()
        self.criterionCycle = nn.L1Loss()
        self.criterionf_s = nn.CrossEntropyLoss()

        self.optimizer_G = torch.optim.Adam(
            itertools.chain(self.netG_A.parameters(), self.netG_B.parameters()), lr=opt.lr, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD_B.parameters(), lr=opt.lr, betas=(0.5, 0.999))
        self.optimizer_f_s = torch.optim.Adam(self.netf_s.parameters(), lr=opt.lr, betas=(0.5, 0.999))

    def set_input(self, data):
        self.real_A = data["A"]
        self.real_B = data["B"]
        self.input_A_label = data["A_label"]

    def forward(self):
        self.fake_B = self.netG_A(self.real_A)
        self.rec_A = self.netG_B(self.fake_B)
        if self.opt.train_sem:
            self.pred_real_A = self.netf_s(self.real_A)
            self.pfB = self.netf_s(self.fake_B.detach())

    def compute_G_loss(self):
        self.loss_G_A = self.criterionGAN(self.netD_B(self.fake_B), True)
        self.loss_cycle_A = self.criterionCycle(self.rec_A, self.real_A) * self.opt.lambda_A
        self.loss_G = self.loss_G_A + self.loss_cycle_A
        if self.opt.train_sem:
            self.loss_sem_AB = self.criterionf_s(self.pfB, self.input_A_label)
            self.loss_G = self.loss_G + self.opt.lambda_sem * self.loss_sem_AB
        return self.loss_G

    def backward_G(self):
        self.compute_G_loss().backward()

    def backward_D(self):
        pred_real = self.netD_B(self.real_B)
        pred_fake = self.netD_B(self.fake_B.detach())
        self.loss_D_B = 0.5 * (self.criterionGAN(pred_real, True) + self.criterionGAN(pred_fake, False))
        self.loss_D_B.backward()

    def backward_f_s(self):
        self.loss_f_s = self.criterionf_s(self.pred_real_A, self.input_A_label)
        self.loss_f_s.backward()

    def set_requires_grad(self, nets, requires_grad):
        for net in nets:
            for p in net.parameters():
                p.requires_grad = requires_grad

    def optimize_parameters(self):
        self.forward()
        self.set_requires_grad([self.netD_B], False)
        self.set_requires_grad([self.netf_s], False)
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()

        self.set_requires_grad([self.netD_B], True)
        self.optimizer_D.zero_grad()
        self.backward_D()
        self.optimizer_D.step()

        if self.opt.train_sem:
            self.set_requires_grad([self.netf_s], True)
            self.optimizer_f_s.zero_grad()
            self.backward_f_s()
            self.optimizer_f_s.step()
