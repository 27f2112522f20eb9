import torch
import torch.nn as nn

from gdn import GDN


class Autoencoder(nn.Module):
    def __init__(self, n=32):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, n, 5, stride=2, padding=2), GDN(n),
            nn.Conv2d(n, n, 5, stride=2, padding=2))
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(n, n, 5, stride=2, padding=2, output_padding=1), GDN(n),
            nn.ConvTranspose2d(n, 3, 5, stride=2, padding=2, output_padding=1))

    def forward(self, x):
        y = self.encoder(x)
        y_hat = y + torch.empty_like(y).uniform_(-0.5, 0.5)
        return self.decoder(y_hat)


if __name__ == "__main__":
    torch.manual_seed(0)
    net = Autoencoder()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)
    for step in range(3):
        x = torch.rand(4, 3, 32, 32)
        x_hat = net(x)
        loss = nn.functional.mse_loss(x_hat, x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: mse {loss.item():.5f}")
