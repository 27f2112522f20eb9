import argparse

import torch
import torch.nn.functional as F

from models import BaseModel, Discriminator, GenB


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--num_hid", type=int, default=64)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--kld_weight", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1111)
    return parser.parse_args()


def make_loader(n_batches, batch_size, ntoken=100, n_obj=10, v_dim=32, num_ans=20):
    g = torch.Generator().manual_seed(0)
    for _ in range(n_batches):
        v = torch.randn(batch_size, n_obj, v_dim, generator=g)
        q = torch.randint(0, ntoken, (batch_size, 8), generator=g)
        a = (torch.rand(batch_size, num_ans, generator=g) > 0.9).float()
        yield v, q, a


def train(model, genb, discriminator, args):
    optim = torch.optim.Adamax(model.parameters(), lr=args.lr)
    optim_G = torch.optim.Adamax(genb.parameters(), lr=args.lr)
    optim_D = torch.optim.Adamax(discriminator.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        for i, (v, q, a) in enumerate(make_loader(4, args.batch_size)):
            optim.zero_grad()
            pred = model(v, q)

            # train genb
            optim_G.zero_grad()
            pred_g = genb(v, q, gen=True)
            g_loss = F.binary_cross_entropy_with_logits(pred_g, a, reduction="mean") * a.size(1)
            vae_preds = discriminator(pred_g, a)
            main_preds = discriminator(pred.detach(), a)
            g_distill = F.kl_div(F.log_softmax(pred_g, -1), F.softmax(pred.detach(), -1), reduction="batchmean")
            g_loss = g_loss + F.binary_cross_entropy_with_logits(vae_preds, torch.ones_like(vae_preds))
            g_loss = g_loss + args.kld_weight * g_distill
            g_loss.backward(retain_graph=True)
            optim_G.step()

            # train the discriminator
            optim_D.zero_grad()
            dsc_loss = F.binary_cross_entropy_with_logits(main_preds, torch.ones_like(main_preds))
            dsc_loss = dsc_loss + F.binary_cross_entropy_with_logits(vae_preds, torch.zeros_like(vae_preds))
            dsc_loss.backward(retain_graph=True)
            optim_D.step()

            # use genb to train the robust model
            genb.train(False)
            pred_g = genb(v, q, gen=False).detach()
            gt_scale = torch.sigmoid(pred_g) * a
            loss = F.binary_cross_entropy_with_logits(pred - pred_g, a * (1 - gt_scale).clamp(min=0))
            loss.backward()
            optim.step()
            genb.train(True)
            print(f"epoch {epoch} iter {i}: g {g_loss.item():.3f} d {dsc_loss.item():.3f} m {loss.item():.3f}")


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    model = BaseModel(100, 32, args.num_hid, 20)
    genb = GenB(100, 32, args.num_hid, 20)
    discriminator = Discriminator(20, args.num_hid)
    train(model, genb, discriminator, args)


if __name__ == "__main__":
    main()
