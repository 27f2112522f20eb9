import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SamePad(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.remove = 1 if kernel_size % 2 == 0 else 0

    def forward(self, x):
        if self.remove > 0:
            x = x[:, :, : -self.remove]
        return x


class ConvFeatureExtractor(nn.Module):
    def __init__(self, conv_layers, conv_bias=False):
        super().__init__()
        in_d = 1
        self.conv_layers = nn.ModuleList()
        for i, (dim, k, stride) in enumerate(conv_layers):
            conv = nn.Conv1d(in_d, dim, k, stride=stride, bias=conv_bias)
            nn.init.kaiming_normal_(conv.weight)
            if i == 0:
                block = nn.Sequential(conv, nn.GroupNorm(dim, dim, affine=True), nn.GELU())
            else:
                block = nn.Sequential(conv, nn.GELU())
            self.conv_layers.append(block)
            in_d = dim

    def forward(self, x):
        x = x.unsqueeze(1)
        for conv in self.conv_layers:
            x = conv(x)
        return x


class EncoderLayer(nn.Module):
    def __init__(self, dim, ffn_dim, heads, dropout):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.self_attn_layer_norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, ffn_dim)
        self.fc2 = nn.Linear(ffn_dim, dim)
        self.final_layer_norm = nn.LayerNorm(dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, padding_mask=None):
        residual = x
        x, _ = self.self_attn(x, x, x, key_padding_mask=padding_mask, need_weights=False)
        x = self.self_attn_layer_norm(residual + self.dropout(x))
        residual = x
        x = self.fc2(self.dropout(F.gelu(self.fc1(x))))
        x = self.final_layer_norm(residual + self.dropout(x))
        return x


class AudioEncoder(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        layers = eval(args.conv_feature_layers)
        self.embed = layers[-1][0]
        self.feature_extractor = ConvFeatureExtractor(layers, conv_bias=args.conv_bias)
        self.layer_norm = nn.LayerNorm(self.embed)
        self.post_extract_proj = (
            nn.Linear(self.embed, args.encoder_embed_dim)
            if self.embed != args.encoder_embed_dim else None
        )
        self.dropout_input = nn.Dropout(args.dropout_input)
        self.feature_grad_mult = args.feature_grad_mult

        pos_conv = nn.Conv1d(args.encoder_embed_dim, args.encoder_embed_dim,
                             kernel_size=args.conv_pos, padding=args.conv_pos // 2,
                             groups=args.conv_pos_groups)
        std = math.sqrt(4.0 / (args.conv_pos * args.encoder_embed_dim))
        nn.init.normal_(pos_conv.weight, mean=0, std=std)
        nn.init.constant_(pos_conv.bias, 0)
        pos_conv = nn.utils.parametrizations.weight_norm(pos_conv, name="weight", dim=2)
        self.pos_conv = nn.Sequential(pos_conv, SamePad(args.conv_pos), nn.GELU())

        self.enc_layer_norm = nn.LayerNorm(args.encoder_embed_dim)
        self.layers = nn.ModuleList([
            EncoderLayer(args.encoder_embed_dim, args.encoder_ffn_embed_dim,
                         args.encoder_attention_heads, args.dropout)
            for _ in range(args.layer_use + 1)
        ])
        self.cls_token = nn.Parameter(torch.randn(1, 1, args.encoder_embed_dim))

    def forward(self, source):
        features = self.feature_extractor(source)
        if self.feature_grad_mult != 1.0:
            features = features * self.feature_grad_mult + features.detach() * (1 - self.feature_grad_mult)
        features = features.transpose(1, 2)
        features = self.layer_norm(features)
        if self.post_extract_proj is not None:
            features = self.post_extract_proj(features)
        features = self.dropout_input(features)

        x = features
        x_conv = self.pos_conv(x.transpose(1, 2))
        x_conv = x_conv.transpose(1, 2)
        x += x_conv

        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1)
        x = self.enc_layer_norm(x)
        for layer in self.layers:
            x = layer(x)
        return {"cls_token": x[:, 0], "features": x[:, 1:]}


class DualEncoder(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.audio_encoder = AudioEncoder(args)
        self.visual_proj = nn.Linear(args.visual_dim, args.encoder_embed_dim)
        self.audio_proj = nn.Linear(args.encoder_embed_dim, args.encoder_embed_dim)

    def forward(self, audio, visual_feats):
        out = self.audio_encoder(audio)
        audio_emb = F.normalize(self.audio_proj(out["cls_token"]), dim=-1)
        visual_emb = F.normalize(self.visual_proj(visual_feats.mean(1)), dim=-1)
        return audio_emb, visual_emb
