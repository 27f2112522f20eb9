import torch

from vae import AutoencoderKL, PatchDiscriminator, ae_loss, disc_loss


class VAEGANModule:
    def __init__(self, accumulate_grad_batches=4, lr=1e-3, clip=1.0):
        self.vae = AutoencoderKL()
        self.disc = PatchDiscriminator()
        self.accumulate_grad_batches = accumulate_grad_batches
        self.clip = clip
        self.g_opt = torch.optim.Adam(self.vae.parameters(), lr=lr, betas=(0.5, 0.9))
        self.d_opt = torch.optim.Adam(self.disc.parameters(), lr=lr, betas=(0.5, 0.9))
        self.g_grads_at_step = []

    def training_step(self, batch, batch_idx):
        rec, mean, logvar = self.vae(batch)
        update = (batch_idx + 1) % self.accumulate_grad_batches == 0

        # train encoder+decoder+logvar
        aeloss = ae_loss(batch, rec, mean, logvar, self.disc(rec)) / self.accumulate_grad_batches
        self.g_opt.zero_grad()
        aeloss.backward()
        if update:
            self.g_grads_at_step.append(self.vae.conv_out.weight.grad.clone())
            torch.nn.utils.clip_grad_norm_(self.vae.parameters(), self.clip)
            self.g_opt.step()

        # train the discriminator
        discloss = disc_loss(self.disc(batch), self.disc(rec.detach())) / self.accumulate_grad_batches
        self.d_opt.zero_grad()
        discloss.backward()
        if update:
            torch.nn.utils.clip_grad_norm_(self.disc.parameters(), self.clip)
            self.d_opt.step()
        return aeloss.item(), discloss.item()
