import torch

from model import StyleMapGAN

torch.manual_seed(0)
LAMBDA_ADV, LAMBDA_W_REC = 1.0, 1.0


def requires_grad(module, flag):
    for p in module.parameters():
        p.requires_grad = flag


model = StyleMapGAN()
g_optim = torch.optim.Adam(model.generator.parameters(), lr=2e-3, betas=(0.0, 0.99))
e_optim = torch.optim.Adam(model.encoder.parameters(), lr=2e-3, betas=(0.0, 0.99))
d_optim = torch.optim.Adam(model.discriminator.parameters(), lr=2e-3, betas=(0.0, 0.99))
loader = [torch.randn(4, 3, 8, 8) for _ in range(3)]

for i, real_img in enumerate(loader):
    requires_grad(model.discriminator, False)
    adv_loss, w_rec_loss, stylecode = model(real_img, "G")
    g_loss = adv_loss * LAMBDA_ADV
    g_optim.zero_grad()
    g_loss.backward()
    g_optim.step()

    e_optim.zero_grad()
    (w_rec_loss * LAMBDA_W_REC).backward()
    e_optim.step()

    requires_grad(model.discriminator, True)
    d_loss = model(real_img, "D")
    d_optim.zero_grad()
    d_loss.backward()
    d_optim.step()
    print(f"iter {i}: g {g_loss.item():.3f} w_rec {w_rec_loss.item():.3f} d {d_loss.item():.3f}")
