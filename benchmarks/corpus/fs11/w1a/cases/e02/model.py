from torch import nn

from quantize import ResidualVectorQuantize


class Encoder(nn.Module):
    def __init__(self, dim=16, latent_dim=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, dim, 7, padding=3),
            nn.ELU(),
            nn.Conv1d(dim, latent_dim, 8, stride=4, padding=2),
            nn.ELU(),
            nn.Conv1d(latent_dim, latent_dim, 3, padding=1),
        )

    def forward(self, x):
        return self.net(x)


class Decoder(nn.Module):
    def __init__(self, latent_dim=32, dim=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(latent_dim, dim, 7, padding=3),
            nn.ELU(),
            nn.ConvTranspose1d(dim, dim, 8, stride=4, padding=2),
            nn.ELU(),
            nn.Conv1d(dim, 1, 7, padding=3),
            nn.Tanh(),
        )

    def forward(self, z):
        return self.net(z)


class DAC(nn.Module):
    def __init__(self, latent_dim=32, n_codebooks=4):
        super().__init__()
        self.encoder = Encoder(latent_dim=latent_dim)
        self.quantizer = ResidualVectorQuantize(latent_dim, n_codebooks)
        self.decoder = Decoder(latent_dim=latent_dim)

    def forward(self, audio):
        z = self.encoder(audio)
        z_q, codes, commitment_loss, codebook_loss = self.quantizer(z)
        recon = self.decoder(z_q)
        return {
            "audio": recon[..., : audio.shape[-1]],
            "codes": codes,
            "vq/commitment_loss": commitment_loss,
            "vq/codebook_loss": codebook_loss,
        }
