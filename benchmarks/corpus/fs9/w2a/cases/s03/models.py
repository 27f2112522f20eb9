import torch
from torch import nn
import torch.nn.functional as F


def conv_bn(c_in, c_out, stride):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.LeakyReLU(0.1),
    )


class YOLOLayer(nn.Module):
    def __init__(self, num_anchors, num_classes):
        super().__init__()
        self.num_anchors = num_anchors
        self.num_classes = num_classes

    def forward(self, x, targets=None):
        b, _, h, w = x.shape
        pred = x.view(b, self.num_anchors, self.num_classes + 5, h, w).permute(0, 1, 3, 4, 2)
        obj = pred[..., 4]
        cls = pred[..., 5:]
        boxes = torch.sigmoid(pred[..., :4])
        if targets is None:
            return boxes, 0.0
        obj_t, box_t, cls_t = targets
        loss_obj = F.binary_cross_entropy_with_logits(obj, obj_t)
        pos = obj_t > 0.5
        loss_box = F.mse_loss(boxes[pos], box_t[pos])
        loss_cls = F.cross_entropy(cls[pos], cls_t[pos])
        return boxes, loss_obj + loss_box + loss_cls


class Darknet(nn.Module):
    def __init__(self, num_classes=4, num_anchors=3):
        super().__init__()
        self.backbone = nn.Sequential(conv_bn(3, 16, 1), conv_bn(16, 32, 2), conv_bn(32, 32, 2))
        self.head = nn.Conv2d(32, num_anchors * (num_classes + 5), 1)
        self.yolo = YOLOLayer(num_anchors, num_classes)

    def forward(self, x, targets=None):
        out, loss = self.yolo(self.head(self.backbone(x)), targets)
        return loss, out
