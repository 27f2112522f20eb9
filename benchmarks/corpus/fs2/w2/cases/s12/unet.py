import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import hook_outputs


def model_sizes(encoder, size):
    hooks = hook_outputs(list(encoder.children()))
    was_training = encoder.training
    with torch.no_grad():
        encoder.eval()(torch.zeros(1, 3, *size))
    encoder.train(was_training)
    sizes = [h.stored.shape for h in hooks]
    hooks.remove()
    return sizes


def get_sfs_idxs(sizes):
    feature_szs = [s[-1] for s in sizes]
    return [i for i in range(len(feature_szs) - 1) if feature_szs[i] != feature_szs[i + 1]]


class UnetBlock(nn.Module):
    def __init__(self, up_in_c, x_in_c, hook, out_c):
        super().__init__()
        self.hook = hook
        self.shuf = nn.ConvTranspose2d(up_in_c, up_in_c // 2, 2, stride=2)
        self.bn = nn.BatchNorm2d(x_in_c)
        self.conv = nn.Sequential(
            nn.Conv2d(up_in_c // 2 + x_in_c, out_c, 3, padding=1), nn.ReLU(),
            nn.Conv2d(out_c, out_c, 3, padding=1), nn.ReLU())

    def forward(self, up_in):
        s = self.hook.stored
        up_out = self.shuf(up_in)
        if up_out.shape[-2:] != s.shape[-2:]:
            up_out = F.interpolate(up_out, s.shape[-2:], mode="nearest")
        return self.conv(torch.cat([up_out, self.bn(s)], dim=1))


class DynamicUnet(nn.Module):
    def __init__(self, encoder, n_classes, img_size=(32, 32)):
        super().__init__()
        self.encoder = encoder
        sizes = model_sizes(encoder, img_size)
        sfs_idxs = list(reversed(get_sfs_idxs(sizes)))
        self.sfs = hook_outputs([encoder[i] for i in sfs_idxs])
        ni = sizes[-1][1]
        self.middle = nn.Sequential(nn.Conv2d(ni, ni, 3, padding=1), nn.ReLU())
        blocks = []
        up_c = ni
        for i, idx in enumerate(sfs_idxs):
            x_c = sizes[idx][1]
            out_c = max(up_c // 2, 16)
            blocks.append(UnetBlock(up_c, x_c, self.sfs[i], out_c))
            up_c = out_c
        self.blocks = nn.ModuleList(blocks)
        self.final = nn.Conv2d(up_c, n_classes, 1)

    def forward(self, x):
        size = x.shape[-2:]
        h = self.middle(self.encoder(x))
        for block in self.blocks:
            h = block(h)
        return F.interpolate(self.final(h), size, mode="bilinear", align_corners=False)
