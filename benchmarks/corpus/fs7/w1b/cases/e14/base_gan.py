import torch

from loss_criterions import GDPPLoss, WGANGP, WGANGPGradientPenalty
from networks import DNet, GNet


class BaseGAN:
    def __init__(self, config):
        self.config = config
        self.device = torch.device("cpu")
        self.netG = GNet(config["dimLatentVector"], config["depth"]).to(self.device)
        self.netD = DNet(config["depth"]).to(self.device)
        self.optimizerD = torch.optim.Adam(self.netD.parameters(), betas=(0.0, 0.99),
                                           lr=config["learningRate"])
        self.optimizerG = torch.optim.Adam(self.netG.parameters(), betas=(0.0, 0.99),
                                           lr=config["learningRate"])
        self.lossCriterion = WGANGP(self.device)

    def buildNoiseData(self, n):
        return torch.randn(n, self.config["dimLatentVector"], device=self.device)

    def optimizeParameters(self, input_batch):
        allLosses = {}
        self.real_input = input_batch.to(self.device)
        n_samples = self.real_input.size(0)

        # Update the discriminator
        self.optimizerD.zero_grad()
        predRealD = self.netD(self.real_input, False)
        lossD = self.lossCriterion.getCriterion(predRealD, True)
        inputLatent = self.buildNoiseData(n_samples)
        predFakeG = self.netG(inputLatent).detach()
        predFakeD = self.netD(predFakeG, False)
        lossDFake = self.lossCriterion.getCriterion(predFakeD, False)
        lossD += lossDFake
        if self.config["lambdaGP"] > 0:
            allLosses["lossD_GP"] = WGANGPGradientPenalty(self.real_input, predFakeG, self.netD,
                                                          self.config["lambdaGP"], backward=True)
        if self.config["epsilonD"] > 0:
            lossD += (predRealD[:, 0] ** 2).sum() * self.config["epsilonD"]
        lossD.backward(retain_graph=True)
        self.optimizerD.step()
        allLosses["lossD"] = lossD.item()

        # Update the generator
        self.optimizerG.zero_grad()
        self.optimizerD.zero_grad()
        inputNoise = self.buildNoiseData(n_samples)
        predFakeG = self.netG(inputNoise)
        predFakeD, phiGFake = self.netD(predFakeG, True)
        lossGFake = self.lossCriterion.getCriterion(predFakeD, True)
        lossGFake.backward()

        if self.config["GDPP"]:
            _, phiDReal = self.netD(self.real_input, True)
            allLosses["lossG_GDPP"] = GDPPLoss(phiGFake, phiDReal, backward=True)

        self.optimizerG.step()
        allLosses["lossG"] = lossGFake.item()
        return allLosses
