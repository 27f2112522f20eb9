import torch
import torch.nn.functional as F

from model import Decoder, Discriminator, Encoder

ARGS = {
    "vocab_size": 60,
    "emb_dim": 32,
    "hidden": 64,
    "z_dim": 16,
    "c_dim": 2,
    "seq_len": 8,
    "batch_size": 8,
    "n_batches": 4,
    "lr": 1e-3,
    "temperature": 0.5,
    "lambda_c": 0.1,
    "lambda_z": 0.1,
    "kl_weight": 0.2,
    "disc_every": 3,
    "bos": 1,
}


def sample_batch(args):
    tokens = torch.randint(2, args["vocab_size"], (args["batch_size"], args["seq_len"]))
    labels = torch.randint(0, args["c_dim"], (args["batch_size"],))
    return tokens, labels


def train_vae_with_attr_loss(encoder, decoder, discriminator, args):
    vae_params = list(encoder.parameters()) + list(decoder.parameters())
    vae_optim = torch.optim.Adam(vae_params, lr=args["lr"])
    disc_optim = torch.optim.Adam(discriminator.parameters(), lr=args["lr"])

    for step in range(1, args["n_batches"] + 1):
        tokens, labels = sample_batch(args)
        c = F.one_hot(labels, args["c_dim"]).float()

        mu, logvar = encoder(tokens)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        dec_in = torch.cat([torch.full_like(tokens[:, :1], args["bos"]), tokens[:, :-1]], 1)
        logits = decoder(dec_in, z, c)
        language_loss = F.cross_entropy(logits.reshape(-1, args["vocab_size"]), tokens.reshape(-1))
        latent_loss = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1))

        z_prior = torch.randn_like(z)
        c_target = torch.randint(0, args["c_dim"], (args["batch_size"],))
        c_prior = F.one_hot(c_target, args["c_dim"]).float()
        generated = decoder.generate_soft(z_prior, c_prior, args["seq_len"], args["bos"],
                                          args["temperature"])

        if step % args["disc_every"] == 0:
            real_loss = F.cross_entropy(discriminator(tokens), labels)
            fake_loss = F.cross_entropy(discriminator.forward_soft(generated), c_target)
            disc_loss = real_loss + 0.1 * fake_loss
            disc_optim.zero_grad()
            disc_loss.backward()
            disc_optim.step()

        l_attr_c = F.cross_entropy(discriminator.forward_soft(generated), c_target)
        mu_gen, _ = encoder.encode_soft(generated)
        l_attr_z = F.mse_loss(mu_gen, z_prior)

        total_vae_loss = (language_loss + args["kl_weight"] * latent_loss
                          + args["lambda_c"] * l_attr_c + args["lambda_z"] * l_attr_z)
        vae_optim.zero_grad()
        total_vae_loss.backward()
        vae_optim.step()
        print(f"batch {step} language {language_loss.item():.3f} latent {latent_loss.item():.4f} "
              f"l_attr_c {l_attr_c.item():.3f} l_attr_z {l_attr_z.item():.4f}")


def main():
    torch.manual_seed(0)
    args = ARGS
    encoder = Encoder(args["vocab_size"], args["emb_dim"], args["hidden"], args["z_dim"],
                      args["c_dim"])
    decoder = Decoder(args["vocab_size"], args["emb_dim"], args["hidden"], args["z_dim"],
                      args["c_dim"])
    discriminator = Discriminator(args["vocab_size"], args["emb_dim"], args["c_dim"])
    train_vae_with_attr_loss(encoder, decoder, discriminator, args)


if __name__ == "__main__":
    main()
