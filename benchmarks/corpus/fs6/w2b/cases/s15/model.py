import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(dim, dim, 3, padding=1, bias=False), nn.GELU(),
            nn.Conv2d(dim, dim, 3, padding=1, bias=False),
        )

    def forward(self, x):
        return x + self.body(x)


class Downsample(nn.Module):
    def __init__(self, n_feat):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(n_feat, n_feat // 2, 3, padding=1, bias=False), nn.PixelUnshuffle(2))

    def forward(self, x):
        return self.body(x)


class Upsample(nn.Module):
    def __init__(self, n_feat):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(n_feat, n_feat * 2, 3, padding=1, bias=False), nn.PixelShuffle(2))

    def forward(self, x):
        return self.body(x)


class PromptGenBlock(nn.Module):
    def __init__(self, prompt_dim=32, prompt_len=5, prompt_size=16, lin_dim=32):
        super().__init__()
        self.prompt_param = nn.Parameter(torch.rand(1, prompt_len, prompt_dim, prompt_size, prompt_size))
        self.linear_layer = nn.Linear(lin_dim, prompt_len)
        self.conv3x3 = nn.Conv2d(prompt_dim, prompt_dim, kernel_size=3, stride=1, padding=1, bias=False)

    def forward(self, x):
        B, C, H, W = x.shape
        emb = x.mean(dim=(-2, -1))
        prompt_weights = F.softmax(self.linear_layer(emb), dim=1)
        prompt = prompt_weights.unsqueeze(-1).unsqueeze(-1).unsqueeze(-1) * self.prompt_param.data.repeat(B, 1, 1, 1, 1)
        prompt = torch.sum(prompt, dim=1)
        prompt = F.interpolate(prompt, (H, W), mode="bilinear")
        prompt = self.conv3x3(prompt)
        return prompt


class PromptIR(nn.Module):
    def __init__(self, inp_channels=3, out_channels=3, dim=16, decoder=False):
        super().__init__()
        self.decoder = decoder
        self.patch_embed = nn.Conv2d(inp_channels, dim, 3, padding=1, bias=False)
        self.encoder_level1 = ResBlock(dim)
        self.down1_2 = Downsample(dim)
        self.encoder_level2 = ResBlock(dim * 2)
        self.down2_3 = Downsample(dim * 2)
        self.latent = ResBlock(dim * 4)
        if self.decoder:
            self.prompt3 = PromptGenBlock(prompt_dim=dim * 4, prompt_len=5, prompt_size=8, lin_dim=dim * 4)
            self.prompt2 = PromptGenBlock(prompt_dim=dim * 2, prompt_len=5, prompt_size=16, lin_dim=dim * 2)
            self.noise_level3 = nn.Conv2d(dim * 8, dim * 4, kernel_size=1, bias=False)
            self.noise_level2 = nn.Conv2d(dim * 4, dim * 2, kernel_size=1, bias=False)
        self.up3_2 = Upsample(dim * 4)
        self.reduce_chan_level2 = nn.Conv2d(dim * 4, dim * 2, kernel_size=1, bias=False)
        self.decoder_level2 = ResBlock(dim * 2)
        self.up2_1 = Upsample(dim * 2)
        self.decoder_level1 = ResBlock(dim * 2)
        self.output = nn.Conv2d(dim * 2, out_channels, 3, padding=1, bias=False)

    def forward(self, inp_img):
        inp_enc_level1 = self.patch_embed(inp_img)
        out_enc_level1 = self.encoder_level1(inp_enc_level1)
        out_enc_level2 = self.encoder_level2(self.down1_2(out_enc_level1))
        latent = self.latent(self.down2_3(out_enc_level2))
        if self.decoder:
            dec3_param = self.prompt3(latent)
            latent = self.noise_level3(torch.cat([latent, dec3_param], 1))
        inp_dec_level2 = self.up3_2(latent)
        inp_dec_level2 = self.reduce_chan_level2(torch.cat([inp_dec_level2, out_enc_level2], 1))
        out_dec_level2 = self.decoder_level2(inp_dec_level2)
        if self.decoder:
            dec2_param = self.prompt2(out_dec_level2)
            out_dec_level2 = self.noise_level2(torch.cat([out_dec_level2, dec2_param], 1))
        inp_dec_level1 = torch.cat([self.up2_1(out_dec_level2), out_enc_level1], 1)
        out_dec_level1 = self.decoder_level1(inp_dec_level1)
        return self.output(out_dec_level1) + inp_img
