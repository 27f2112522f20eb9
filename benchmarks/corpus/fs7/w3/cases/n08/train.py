import torch
from torch import nn

from losses import critic_loss, generator_loss, gradient_penalty

opt = {"nz": 8, "data_dim": 2, "batch_size": 64, "n_critic": 5, "iters": 12, "lr": 1e-4, "lambda_gp": 10.0}


def make_mlp(inp, out, hidden=64):
    return nn.Sequential(nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, out))


def sample_mixture(n):
    centers = torch.tensor([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
    return centers[torch.randint(0, 4, (n,))] + 0.05 * torch.randn(n, 2)


def set_requires_grad(net, flag):
    for p in net.parameters():
        p.requires_grad = flag


def main():
    torch.manual_seed(0)
    netG = make_mlp(opt["nz"], opt["data_dim"])
    netD = make_mlp(opt["data_dim"], 1)
    optD = torch.optim.Adam(netD.parameters(), lr=opt["lr"], betas=(0.5, 0.9))
    optG = torch.optim.Adam(netG.parameters(), lr=opt["lr"], betas=(0.5, 0.9))

    for it in range(opt["iters"]):
        set_requires_grad(netD, True)
        for _ in range(opt["n_critic"]):
            real = sample_mixture(opt["batch_size"])
            with torch.no_grad():
                fake = netG(torch.randn(opt["batch_size"], opt["nz"]))
            optD.zero_grad()
            d_loss = critic_loss(netD(real), netD(fake))
            gp = gradient_penalty(netD, real, fake, opt["lambda_gp"])
            (d_loss + gp).backward()
            optD.step()

        set_requires_grad(netD, False)
        optG.zero_grad()
        fake = netG(torch.randn(opt["batch_size"], opt["nz"]))
        g_loss = generator_loss(netD(fake))
        g_loss.backward()
        optG.step()
        if it % 4 == 0:
            print(f"iter {it} d_loss {d_loss.item():.4f} gp {gp.item():.4f} g_loss {g_loss.item():.4f}")
    return netG, netD


if __name__ == "__main__":
    netG, netD = main()
