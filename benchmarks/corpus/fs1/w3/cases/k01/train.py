import compat  # noqa: F401
import torch
import torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

from models import Discriminator, Generator


class GAN(L.LightningModule):
    def __init__(self, latent_dim=16, data_dim=32, lr=2e-4, b1=0.5, b2=0.999):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.generator = Generator(latent_dim, data_dim)
        self.discriminator = Discriminator(data_dim)

    def forward(self, z):
        return self.generator(z)

    def adversarial_loss(self, logits, target):
        return F.binary_cross_entropy_with_logits(logits, target)

    def training_step(self, batch, batch_idx):
        (real,) = batch
        opt_g, opt_d = self.optimizers()

        z = torch.randn(real.size(0), self.hparams.latent_dim).type_as(real)
        fake = self(z)
        valid = torch.ones(real.size(0), 1).type_as(real)
        invalid = torch.zeros(real.size(0), 1).type_as(real)

        self.toggle_optimizer(opt_d)
        real_loss = self.adversarial_loss(self.discriminator(real), valid)
        fake_loss = self.adversarial_loss(self.discriminator(fake.detach()), invalid)
        d_loss = (real_loss + fake_loss) / 2
        opt_d.zero_grad()
        self.manual_backward(d_loss)
        opt_d.step()
        self.untoggle_optimizer(opt_d)

        self.toggle_optimizer(opt_g)
        g_loss = self.adversarial_loss(self.discriminator(fake), valid)
        opt_g.zero_grad()
        self.manual_backward(g_loss)
        opt_g.step()
        self.untoggle_optimizer(opt_g)

        self.log_dict({"d_loss": d_loss, "g_loss": g_loss}, prog_bar=True)

    def configure_optimizers(self):
        lr, b1, b2 = self.hparams.lr, self.hparams.b1, self.hparams.b2
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(b1, b2))
        opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=lr, betas=(b1, b2))
        return [opt_g, opt_d]


def make_data(n=256, dim=32):
    centers = torch.randn(4, dim) * 0.5
    idx = torch.randint(0, 4, (n,))
    x = centers[idx] + 0.1 * torch.randn(n, dim)
    return TensorDataset(x.clamp(-1, 1))


if __name__ == "__main__":
    L.seed_everything(0, verbose=False)
    loader = DataLoader(make_data(), batch_size=32, shuffle=True, drop_last=True)
    model = GAN()
    trainer = L.Trainer(
        max_epochs=3,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, loader)
    print("done", trainer.global_step)
