import torch
from torch import nn

from networks import Discriminator, EdgeGenerator


class AdversarialLoss(nn.Module):
    def __init__(self, type="nsgan"):
        super().__init__()
        self.type = type
        self.criterion = nn.BCELoss() if type == "nsgan" else nn.MSELoss()

    def forward(self, outputs, is_real):
        labels = torch.ones_like(outputs) if is_real else torch.zeros_like(outputs)
        return self.criterion(outputs, labels)


class EdgeModel(nn.Module):
    def __init__(self, config, accelerator):
        super().__init__()
        self.config = config
        self.accelerator = accelerator
        generator = EdgeGenerator()
        discriminator = Discriminator(in_channels=2, use_sigmoid=config["GAN_LOSS"] != "hinge")
        self.adversarial_loss = AdversarialLoss(type=config["GAN_LOSS"])
        self.l1_loss = nn.L1Loss()
        gen_optimizer = torch.optim.Adam(generator.parameters(), lr=config["LR"],
                                         betas=(config["BETA1"], config["BETA2"]))
        dis_optimizer = torch.optim.Adam(discriminator.parameters(),
                                         lr=config["LR"] * config["D2G_LR"],
                                         betas=(config["BETA1"], config["BETA2"]))
        (self.generator, self.discriminator, self.gen_optimizer,
         self.dis_optimizer) = accelerator.prepare(generator, discriminator, gen_optimizer,
                                                   dis_optimizer)

    def process(self, images, edges, masks):
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()

        outputs = self(images, edges, masks)
        gen_loss = 0
        dis_loss = 0

        dis_input_real = torch.cat((images[:, :1], edges), dim=1)
        dis_input_fake = torch.cat((images[:, :1], outputs.detach()), dim=1)
        dis_real, dis_real_feat = self.discriminator(dis_input_real)
        dis_fake, dis_fake_feat = self.discriminator(dis_input_fake)
        dis_real_loss = self.adversarial_loss(dis_real, True)
        dis_fake_loss = self.adversarial_loss(dis_fake, False)
        dis_loss += (dis_real_loss + dis_fake_loss) / 2

        gen_input_fake = torch.cat((images[:, :1], outputs), dim=1)
        gen_fake, gen_fake_feat = self.discriminator(gen_input_fake)
        gen_gan_loss = self.adversarial_loss(gen_fake, True)
        gen_loss += gen_gan_loss

        gen_fm_loss = 0
        for real_feat, fake_feat in zip(dis_real_feat, gen_fake_feat):
            gen_fm_loss += self.l1_loss(fake_feat, real_feat.detach())
        gen_loss += gen_fm_loss * self.config["FM_LOSS_WEIGHT"]

        logs = {"l_d1": dis_loss.item(), "l_g1": gen_gan_loss.item(), "l_fm": gen_fm_loss.item()}
        return outputs, gen_loss, dis_loss, logs

    def forward(self, images, edges, masks):
        edges_masked = edges * (1 - masks)
        images_masked = images[:, :1] * (1 - masks) + masks
        inputs = torch.cat((images_masked, edges_masked, masks), dim=1)
        return self.generator(inputs)

    def backward(self, gen_loss=None, dis_loss=None):
        if dis_loss is not None:
            self.accelerator.backward(dis_loss)
        self.dis_optimizer.step()

        if gen_loss is not None:
            self.accelerator.backward(gen_loss)
        self.gen_optimizer.step()
