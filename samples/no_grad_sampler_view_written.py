"""A patch sampler crops its patches under @torch.no_grad() and hands out the slices; the model
then writes a learned mask token into the patch it is given, with grad on."""
import torch
from torch import nn


class PatchSampler:
    def __init__(self, size):
        self.size = size

    @torch.no_grad()
    def __call__(self, images):
        start = int(torch.randint(0, images.shape[-1] - self.size + 1, ()))
        patches = images[:, :, start:start + self.size]
        return patches, start


class MaskedModel(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.token = nn.Parameter(torch.zeros(channels, 1))
        self.proj = nn.Conv1d(channels, channels, 1)

    def forward(self, x, start):
        x[0] = x[0] * 0 + self.token
        return self.proj(x)


torch.manual_seed(0)
sampler, model = PatchSampler(4), MaskedModel(3)
images = torch.randn(2, 3, 16)
inputs, start = sampler(images)
loss = model(inputs, start).pow(2).mean()
loss.backward()
