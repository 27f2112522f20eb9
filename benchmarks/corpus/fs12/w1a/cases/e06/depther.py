import torch
import torch.nn as nn
import torch.nn.functional as F


class BNHead(nn.Module):
    def __init__(self, embed_dim, num_levels, channels=96, min_depth=1e-3, max_depth=10.0, n_bins=64):
        super().__init__()
        self.min_depth = min_depth
        self.max_depth = max_depth
        self.projects = nn.ModuleList([nn.Conv2d(embed_dim, channels // 2, kernel_size=1) for _ in range(num_levels)])
        self.readout = nn.ModuleList([nn.Linear(embed_dim, channels // 2) for _ in range(num_levels)])
        self.fuse = nn.Conv2d(channels * num_levels, channels, kernel_size=1)
        self.bn = nn.BatchNorm2d(channels)
        self.conv_depth = nn.Conv2d(channels, n_bins, kernel_size=3, padding=1)
        self.register_buffer("bins", torch.linspace(min_depth, max_depth, n_bins))

    def _transform_inputs(self, inputs):
        feats = []
        for level, (patch, cls) in enumerate(inputs):
            patch = self.projects[level](patch)
            cls = self.readout[level](cls)[:, :, None, None].expand_as(patch)
            feats.append(torch.cat([patch, cls], dim=1))
        return torch.cat(feats, dim=1)

    def forward(self, inputs):
        x = self._transform_inputs(inputs)
        x = F.relu(self.bn(self.fuse(x)))
        prob = self.conv_depth(x).softmax(dim=1)
        return (prob * self.bins[None, :, None, None]).sum(dim=1, keepdim=True)

    def loss(self, pred, depth_gt, eps=1e-6):
        valid = depth_gt > self.min_depth
        g = torch.log(pred[valid] + eps) - torch.log(depth_gt[valid] + eps)
        return torch.sqrt((g ** 2).mean() - 0.15 * g.mean() ** 2) * 10.0


class DepthEncoderDecoder(nn.Module):
    def __init__(self, backbone, decode_head, out_index=(0, 1, 2, 3)):
        super().__init__()
        self.backbone = backbone
        self.decode_head = decode_head
        self.out_index = out_index

    def extract_feat(self, img):
        return self.backbone(img)

    def forward_train(self, img, depth_gt):
        feats = self.extract_feat(img)
        pred = self.decode_head(feats)
        pred = F.interpolate(pred, size=depth_gt.shape[-2:], mode="bilinear", align_corners=False)
        return {"loss_depth": self.decode_head.loss(pred, depth_gt)}

    def forward(self, img, depth_gt=None, return_loss=True):
        if return_loss:
            return self.forward_train(img, depth_gt)
        feats = self.extract_feat(img)
        return self.decode_head(feats)


def make_backbone_fn(backbone, layers):
    @torch.inference_mode()
    def forward(img):
        return backbone.get_intermediate_layers(img, n=layers, reshape=True, return_class_token=True)
    return forward


def make_depther(backbone, embed_dim, layers=(0, 1, 2, 3)):
    for p in backbone.parameters():
        p.requires_grad_(False)
    head = BNHead(embed_dim, num_levels=len(layers))
    model = DepthEncoderDecoder(nn.Identity(), head)
    model.backbone.forward = make_backbone_fn(backbone, layers)
    model.frozen_backbone = backbone
    return model
