import torch
import torch.nn.functional as F

from models import Simple_Decoder, Simple_Unet, enforcer

ARGS = {
    "num_labels": 4,
    "tau": 2.0,
    "beta": 0.1,
    "lr": 1e-4,
    "epochs": 2,
    "size": 16,
}


def make_atlas(num_labels, size):
    prior = torch.rand(1, num_labels, size, size)
    prior[:, 0, : size // 4] = 0.0
    prior[:, -1, -size // 4:] = 0.0
    return prior / prior.sum(dim=1, keepdim=True)


def sae_loss(recon, image, prob, prior, beta):
    recon_loss = F.mse_loss(recon, image)
    kl = (prob * (torch.log(prob + 1e-8) - torch.log(prior + 1e-8))).sum(1).mean()
    return recon_loss + beta * kl, recon_loss, kl


def run(args):
    torch.manual_seed(0)
    enc = Simple_Unet(1, args["num_labels"], True, [8, 16], [16, 8])
    dec = Simple_Decoder(args["num_labels"], 1)
    optimizer = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=args["lr"])
    prior = make_atlas(args["num_labels"], args["size"])
    volumes = [torch.rand(2, 1, args["size"], args["size"]) for _ in range(3)]

    for epoch in range(args["epochs"]):
        for image in volumes:
            logits = enc(image)
            logits = enforcer(prior, logits)
            prob = F.softmax(logits, dim=1)
            sample = F.gumbel_softmax(logits, tau=args["tau"], hard=False, dim=1)
            recon = dec(sample)
            loss, recon_loss, kl = sae_loss(recon, image, prob, prior, args["beta"])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f} recon {recon_loss.item():.4f} kl {kl.item():.4f}")


if __name__ == "__main__":
    run(ARGS)
