import torch

from models import Discriminator, Generator
from utils import compute_gradient_penalty, sine_dataset

opt = {
    "latent_dim": 16,
    "seq_len": 64,
    "batch_size": 16,
    "n_epochs": 2,
    "n_batches": 6,
    "n_critic": 3,
    "lr": 1e-4,
    "b1": 0.0,
    "b2": 0.9,
    "lambda_gp": 10,
}

torch.manual_seed(0)
g = torch.Generator().manual_seed(1)
data = sine_dataset(opt["batch_size"] * opt["n_batches"], opt["seq_len"], g)

generator = Generator(opt["latent_dim"], opt["seq_len"])
discriminator = Discriminator(opt["seq_len"])
optimizer_G = torch.optim.Adam(generator.parameters(), lr=opt["lr"], betas=(opt["b1"], opt["b2"]))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=opt["lr"], betas=(opt["b1"], opt["b2"]))

batches_done = 0
for epoch in range(opt["n_epochs"]):
    for i, real_signals in enumerate(data.split(opt["batch_size"])):
        # ---------------------
        #  Train Discriminator
        # ---------------------
        optimizer_D.zero_grad()
        z = torch.randn(real_signals.size(0), opt["latent_dim"])
        fake_signals = generator(z)
        real_validity = discriminator(real_signals)
        fake_validity = discriminator(fake_signals.detach())
        gradient_penalty = compute_gradient_penalty(discriminator, real_signals, fake_signals.detach())
        d_loss = -torch.mean(real_validity) + torch.mean(fake_validity)
        d_loss.backward()
        optimizer_D.step()

        # -----------------
        #  Train Generator
        # -----------------
        if i % opt["n_critic"] == 0:
            optimizer_G.zero_grad()
            fake_signals = generator(z)
            g_loss = -torch.mean(discriminator(fake_signals))
            g_loss.backward()
            optimizer_G.step()
            print(f"[Epoch {epoch}/{opt['n_epochs']}] [Batch {i}] "
                  f"[D loss: {d_loss.item():.4f}] [G loss: {g_loss.item():.4f}] [GP: {gradient_penalty.item():.4f}]")
        batches_done += 1
