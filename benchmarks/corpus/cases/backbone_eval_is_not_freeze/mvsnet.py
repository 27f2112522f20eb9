import torch
import torch.nn as nn


class MnasNetLike(nn.Module):
    """Stand-in for the ImageNet-pretrained feature backbone."""

    def __init__(self, out_ch=24):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, out_ch, 3, 1, 1, bias=False), nn.BatchNorm2d(out_ch), nn.ReLU())

    def forward(self, x):
        return self.layers(x)


class MVSNet(nn.Module):
    def __init__(self, n_depths=8):
        super().__init__()
        self.feat_extractor = MnasNetLike()
        self.feat_shrinker = nn.Conv2d(24, 8, 1)
        self.depth_head = nn.Conv2d(8 * 2, n_depths, 3, 1, 1)
        self.register_buffer("depth_values", torch.linspace(0.5, 4.0, n_depths))

    def forward(self, ref_img, src_img):
        ref = self.feat_shrinker(self.feat_extractor(ref_img))
        src = self.feat_shrinker(self.feat_extractor(src_img))
        prob = self.depth_head(torch.cat([ref, src], dim=1)).softmax(dim=1)
        return (prob * self.depth_values[None, :, None, None]).sum(dim=1)
