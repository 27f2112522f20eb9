import torch
import torch.nn as nn

from losses import l1_loss, l2_loss
from networks import Discriminator, SkipGenerator


class SkipGanomaly:
    def __init__(self, opt):
        self.opt = opt
        self.netg = SkipGenerator(opt["nc"], opt["nf"])
        self.netd = Discriminator(opt["nc"], opt["nf"])
        self.l_adv = nn.BCELoss()
        self.l_con = l1_loss
        self.l_lat = l2_loss
        self.optimizer_g = torch.optim.Adam(self.netg.parameters(), lr=opt["lr"], betas=(0.5, 0.999))
        self.optimizer_d = torch.optim.Adam(self.netd.parameters(), lr=opt["lr"], betas=(0.5, 0.999))

    def set_input(self, x):
        self.input = x
        self.real_label = torch.ones(x.shape[0])
        self.fake_label = torch.zeros(x.shape[0])

    def forward_g(self):
        self.fake = self.netg(self.input)

    def forward_d(self):
        self.pred_real, self.feat_real = self.netd(self.input)
        self.pred_fake, self.feat_fake = self.netd(self.fake.detach())

    def backward_g(self):
        self.err_g_adv = self.l_adv(self.netd(self.fake)[0], self.real_label)
        self.err_g_con = self.l_con(self.fake, self.input)
        self.err_g_lat = self.l_lat(self.feat_real, self.feat_fake)
        self.err_g = (self.opt["w_adv"] * self.err_g_adv
                      + self.opt["w_con"] * self.err_g_con
                      + self.opt["w_lat"] * self.err_g_lat)
        self.err_g.backward(retain_graph=True)

    def backward_d(self):
        err_real = self.l_adv(self.pred_real, self.real_label)
        err_fake = self.l_adv(self.pred_fake, self.fake_label)
        self.err_d = (err_real + err_fake) * 0.5
        self.err_d.backward()

    def optimize_params(self):
        self.forward_g()
        self.forward_d()
        self.optimizer_g.zero_grad()
        self.backward_g()
        self.optimizer_g.step()
        self.optimizer_d.zero_grad()
        self.backward_d()
        self.optimizer_d.step()
        return {"err_d": self.err_d.item(), "err_g": self.err_g.item(),
                "err_g_lat": self.err_g_lat.item()}
