import torch.nn as nn


def set_requires_grad(module, flag):
    for p in module.parameters():
        p.requires_grad_(flag)


def set_bn_eval(module):
    for m in module.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.eval()


class TransferModel(nn.Module):
    def __init__(self, backbone, num_classes, freeze_bn=True):
        super().__init__()
        self.backbone = backbone
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(backbone.out_dim, num_classes))
        self.freeze_bn = freeze_bn

    def train(self, mode=True):
        super().train(mode)
        if mode and self.freeze_bn:
            set_bn_eval(self.backbone)
        return self

    def forward(self, x):
        f = self.pool(self.backbone(x)).flatten(1)
        return self.classifier(f)


def trainable(params):
    return [p for p in params if p.requires_grad]
