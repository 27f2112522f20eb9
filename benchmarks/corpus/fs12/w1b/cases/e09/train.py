import torch
import torch.optim as optim

import functions
import models

OPT = {
    "nc": 3, "nfc": 16, "num_layer": 5, "niter": 4,
    "Dsteps": 3, "Gsteps": 3, "lr_g": 5e-4, "lr_d": 5e-4, "beta1": 0.5,
    "lambda_grad": 0.1, "alpha": 10.0, "noise_amp": 0.1, "size": 24,
}


def init_models(opt):
    netG = models.Generator(opt)
    netG.apply(models.weights_init)
    netD = models.Discriminator(opt)
    netD.apply(models.weights_init)
    return netD, netG


def train_single_scale(netD, netG, real, opt):
    size = opt["size"]
    z_opt = functions.generate_noise([opt["nc"], size, size])
    prev = torch.zeros_like(real)
    optimizerD = optim.Adam(netD.parameters(), lr=opt["lr_d"], betas=(opt["beta1"], 0.999))
    optimizerG = optim.Adam(netG.parameters(), lr=opt["lr_g"], betas=(opt["beta1"], 0.999))
    mse = torch.nn.MSELoss()

    for epoch in range(opt["niter"]):
        noise_ = functions.generate_noise([opt["nc"], size, size])

        for j in range(opt["Dsteps"]):
            netD.zero_grad()
            output = netD(real)
            errD_real = -output.mean()
            errD_real.backward(retain_graph=True)

            noise = opt["noise_amp"] * noise_ + prev
            fake = netG(noise.detach(), prev)
            output = netD(fake.detach())
            errD_fake = output.mean()
            errD_fake.backward(retain_graph=True)

            gradient_penalty = functions.calc_gradient_penalty(netD, real, fake, opt["lambda_grad"])
            gradient_penalty.backward()
            errD = errD_real + errD_fake + gradient_penalty
            optimizerD.step()

        for j in range(opt["Gsteps"]):
            netG.zero_grad()
            output = netD(fake)
            errG = -output.mean()
            errG.backward(retain_graph=True)
            Z_opt = opt["noise_amp"] * z_opt + prev
            rec_loss = opt["alpha"] * mse(netG(Z_opt.detach(), prev), real)
            rec_loss.backward(retain_graph=True)
            optimizerG.step()

        print(f"[{epoch}/{opt['niter']}] errD={errD.item():.4f} errG={errG.item():.4f} rec={rec_loss.item():.4f}")
    return netG


def main():
    torch.manual_seed(0)
    real = torch.rand(1, OPT["nc"], OPT["size"], OPT["size"]) * 2 - 1
    netD, netG = init_models(OPT)
    train_single_scale(netD, netG, real, OPT)


if __name__ == "__main__":
    main()
