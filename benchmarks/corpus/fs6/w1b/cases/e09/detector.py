import torch
import torch.nn as nn

from necks import ConvModule, build_neck


class TinyBackbone(nn.Module):
    def __init__(self, stem_channels, stage_channels):
        super().__init__()
        self.stem = ConvModule(3, stem_channels, 3, stride=2, padding=1, norm=True,
                               act_cfg=dict(type="ReLU"))
        stages = []
        in_ch = stem_channels
        for ch in stage_channels:
            stages.append(nn.Sequential(
                ConvModule(in_ch, ch, 3, stride=2, padding=1, norm=True, act_cfg=dict(type="ReLU")),
                ConvModule(ch, ch, 3, padding=1, norm=True, act_cfg=dict(type="ReLU")),
            ))
            in_ch = ch
        self.stages = nn.ModuleList(stages)

    def forward(self, x):
        x = self.stem(x)
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


class DenseHead(nn.Module):
    def __init__(self, num_classes, feat_channels):
        super().__init__()
        self.cls_conv = nn.Conv2d(feat_channels, num_classes, 3, padding=1)
        self.reg_conv = nn.Conv2d(feat_channels, 4, 3, padding=1)

    def forward(self, feats):
        return [self.cls_conv(f) for f in feats], [self.reg_conv(f) for f in feats]

    def loss(self, cls_scores, bbox_preds, cls_targets, bbox_targets):
        loss_cls = sum(nn.functional.binary_cross_entropy_with_logits(s, t)
                       for s, t in zip(cls_scores, cls_targets))
        loss_bbox = sum(nn.functional.smooth_l1_loss(p, t)
                        for p, t in zip(bbox_preds, bbox_targets))
        return dict(loss_cls=loss_cls, loss_bbox=loss_bbox)


class SingleStageDetector(nn.Module):
    def __init__(self, backbone, neck, head):
        super().__init__()
        self.backbone = TinyBackbone(**backbone)
        self.neck = build_neck(neck)
        self.bbox_head = DenseHead(**head)

    def extract_feat(self, img):
        return self.neck(self.backbone(img))

    def forward_train(self, img, cls_targets, bbox_targets):
        feats = self.extract_feat(img)
        cls_scores, bbox_preds = self.bbox_head(feats)
        return self.bbox_head.loss(cls_scores, bbox_preds, cls_targets, bbox_targets)


def make_targets(model, img, num_classes):
    with torch.no_grad():
        feats = model.extract_feat(img)
    cls_t = [torch.randint(0, 2, (img.size(0), num_classes) + f.shape[2:]).float() for f in feats]
    box_t = [torch.randn(img.size(0), 4, *f.shape[2:]) for f in feats]
    return cls_t, box_t
