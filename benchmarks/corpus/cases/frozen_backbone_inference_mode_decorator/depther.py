import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchViT(nn.Module):
    def __init__(self, patch=4, dim=32, depth=2):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth)

    def forward(self, x):
        tokens = self.patch_embed(x)
        b, c, h, w = tokens.shape
        tokens = self.blocks(tokens.flatten(2).transpose(1, 2))
        return tokens.transpose(1, 2).reshape(b, c, h, w)


class DPTHead(nn.Module):
    def __init__(self, dim=32, min_depth=0.01, max_depth=10.0):
        super().__init__()
        self.project = nn.Conv2d(dim, 16, 3, padding=1)
        self.predict = nn.Conv2d(16, 1, 1)
        self.min_depth, self.max_depth = min_depth, max_depth

    def forward(self, feats, out_size):
        x = F.relu(self.project(feats))
        x = F.interpolate(self.predict(x), size=out_size, mode="bilinear", align_corners=False)
        return self.min_depth + torch.sigmoid(x) * (self.max_depth - self.min_depth)


class DepthEncoderDecoder(nn.Module):
    def __init__(self, backbone, decode_head):
        super().__init__()
        self.backbone = backbone
        self.decode_head = decode_head

    @torch.inference_mode()
    def extract_feat(self, img):
        return self.backbone(img)

    def forward_train(self, img, depth_gt):
        feats = self.extract_feat(img)
        depth = self.decode_head(feats, img.shape[-2:])
        return F.l1_loss(depth, depth_gt)
