import torch.nn as nn

from vq import VectorQuantizerEMA


class Encoder(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, hidden, 4, 2, 1), nn.ReLU(),
            nn.Conv2d(hidden, hidden, 4, 2, 1), nn.ReLU(),
            nn.Conv2d(hidden, hidden, 3, 1, 1),
        )

    def forward(self, x):
        return self.net(x)


class Decoder(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(hidden, hidden, 3, 1, 1), nn.ReLU(),
            nn.ConvTranspose2d(hidden, hidden, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(hidden, 3, 4, 2, 1),
        )

    def forward(self, z):
        return self.net(z)


class VQVAE(nn.Module):
    def __init__(self, hidden=16, embedding_dim=8, num_embeddings=32, commitment_cost=0.25, decay=0.99):
        super().__init__()
        self.encoder = Encoder(hidden)
        self.pre_vq = nn.Conv2d(hidden, embedding_dim, 1)
        self.vq = VectorQuantizerEMA(num_embeddings, embedding_dim, commitment_cost, decay)
        self.decoder = Decoder(embedding_dim)

    def forward(self, x):
        z = self.pre_vq(self.encoder(x))
        loss, quantized, perplexity = self.vq(z)
        x_recon = self.decoder(quantized)
        return loss, x_recon, perplexity
