import torch
import torch.nn as nn

from binarizer import Binarizer


class CompressionNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU())
        self.binarizer = Binarizer(16, 8)
        self.decoder = nn.Sequential(nn.ConvTranspose2d(8, 16, 4, stride=2, padding=1), nn.ReLU(),
                                     nn.Conv2d(16, 3, 3, padding=1))

    def forward(self, x):
        codes = self.binarizer(self.encoder(x))
        return self.decoder(codes)


def main():
    torch.manual_seed(0)
    net = CompressionNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=5e-4)
    for batch in range(3):
        patches = torch.rand(4, 3, 16, 16) * 2 - 1
        recon = net(patches)
        loss = (recon - patches).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"batch {batch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
