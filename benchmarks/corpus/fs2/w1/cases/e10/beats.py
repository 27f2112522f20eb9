import torch
import torch.nn as nn

from backbone import TransformerEncoder


class BEATsConfig:
    def __init__(self, **kw):
        self.input_patch_size = 16
        self.embed_dim = 32
        self.encoder_embed_dim = 64
        self.encoder_layers = 2
        self.encoder_attention_heads = 4
        self.encoder_ffn_embed_dim = 128
        self.dropout_input = 0.1
        self.dropout = 0.1
        self.__dict__.update(kw)


class BEATs(nn.Module):
    def __init__(self, cfg: BEATsConfig):
        super().__init__()
        self.cfg = cfg
        self.patch_embedding = nn.Conv2d(1, cfg.embed_dim, kernel_size=cfg.input_patch_size,
                                         stride=cfg.input_patch_size, bias=False)
        self.layer_norm = nn.LayerNorm(cfg.embed_dim)
        self.post_extract_proj = nn.Linear(cfg.embed_dim, cfg.encoder_embed_dim)
        self.dropout_input = nn.Dropout(cfg.dropout_input)
        self.encoder = TransformerEncoder(cfg.encoder_embed_dim, cfg.encoder_ffn_embed_dim,
                                          cfg.encoder_attention_heads, cfg.encoder_layers, dropout=cfg.dropout)

    def preprocess(self, wave, fbank_mean=15.41663, fbank_std=6.55582):
        frames = wave.unfold(-1, 400, 160)
        spec = torch.fft.rfft(frames * torch.hann_window(400), dim=-1).abs().pow(2)
        fbank = torch.log(spec[..., :128] + 1e-6)
        return (fbank - fbank_mean) / (2 * fbank_std)

    def extract_features(self, wave):
        fbank = self.preprocess(wave).unsqueeze(1)
        features = self.patch_embedding(fbank)
        features = features.flatten(2).transpose(1, 2)
        features = self.layer_norm(features)
        x = self.post_extract_proj(features)
        x = self.dropout_input(x)
        return self.encoder(x)
