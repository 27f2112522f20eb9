import torch
import torch.nn as nn
import torch.nn.functional as F


class VGGLite(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.stage2 = nn.Sequential(nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))

    def forward(self, x):
        c1 = self.stage1(x)
        return [c1, self.stage2(c1)]


class SSDHead(nn.Module):
    def __init__(self, in_channels=(16, 32), num_anchors=4, num_classes=3):
        super().__init__()
        self.cls_convs = nn.ModuleList([nn.Conv2d(c, num_anchors * num_classes, 3, padding=1) for c in in_channels])
        self.reg_convs = nn.ModuleList([nn.Conv2d(c, num_anchors * 4, 3, padding=1) for c in in_channels])
        self.num_classes = num_classes

    def forward(self, feats):
        cls = [conv(f).permute(0, 2, 3, 1).reshape(f.shape[0], -1, self.num_classes)
               for conv, f in zip(self.cls_convs, feats)]
        reg = [conv(f).permute(0, 2, 3, 1).reshape(f.shape[0], -1, 4) for conv, f in zip(self.reg_convs, feats)]
        return torch.cat(cls, 1), torch.cat(reg, 1)

    def loss(self, cls_scores, bbox_preds, gt_labels, gt_bboxes):
        loss_cls = F.cross_entropy(cls_scores.flatten(0, 1), gt_labels.flatten())
        loss_bbox = F.smooth_l1_loss(bbox_preds, gt_bboxes)
        return dict(loss_cls=loss_cls, loss_bbox=loss_bbox)


class SingleStageDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = VGGLite()
        self.bbox_head = SSDHead()
        for v in self.backbone.parameters():
            v.requires_grad = False
        for v in self.bbox_head.parameters():
            v.requires_grad = False

    def forward_train(self, img, gt_labels, gt_bboxes):
        cls_scores, bbox_preds = self.bbox_head(self.backbone(img))
        return self.bbox_head.loss(cls_scores, bbox_preds, gt_labels, gt_bboxes)
