import math

import torch
import torch.nn.functional as F

from codec import HyperpriorCodec


def rate_distortion(x, x_hat, y_lik, z_lik, lmbda):
    num_pixels = x.shape[0] * x.shape[2] * x.shape[3]
    bpp = (-torch.log(y_lik).sum() - torch.log(z_lik).sum()) / (math.log(2) * num_pixels)
    mse = F.mse_loss(x_hat, x)
    return lmbda * 255 ** 2 * mse + bpp, bpp, mse


def main():
    torch.manual_seed(0)
    model = HyperpriorCodec()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    model.train()
    images = torch.rand(6, 4, 3, 32, 32)
    for step, x in enumerate(images):
        x_hat, y_lik, z_lik = model(x)
        loss, bpp, mse = rate_distortion(x, x_hat, y_lik, z_lik, lmbda=0.01)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if step % 2 == 0:
            print(f"step {step}: loss {loss.item():.4f} bpp {bpp.item():.4f} mse {mse.item():.5f}")
    return model


if __name__ == "__main__":
    model = main()
