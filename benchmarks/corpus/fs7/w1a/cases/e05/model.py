import compat  # noqa: F401
import timm
import torch
import torch.nn as nn


class ClassBlock(nn.Module):
    def __init__(self, input_dim, class_num, droprate, num_bottleneck=128):
        super().__init__()
        self.add_block = nn.Sequential(nn.Linear(input_dim, num_bottleneck),
                                       nn.BatchNorm1d(num_bottleneck), nn.Dropout(droprate))
        self.classifier = nn.Linear(num_bottleneck, class_num)

    def forward(self, x):
        return self.classifier(self.add_block(x))


class LPNBranch(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.model = timm.create_model(opt["backbone"], pretrained=False, num_classes=0,
                                       global_pool="")
        self.block = opt["block"]
        dim = self.model.num_features
        self.classifiers = nn.ModuleList(
            [ClassBlock(dim, opt["nclasses"], opt["droprate"]) for _ in range(self.block)])

    def get_part_pool(self, x):
        result = []
        h, w = x.shape[-2:]
        ch, cw = h // 2, w // 2
        per_h, per_w = max(ch // self.block, 1), max(cw // self.block, 1)
        for i in range(1, self.block + 1):
            inner = x[:, :, ch - i * per_h:ch + i * per_h, cw - i * per_w:cw + i * per_w]
            if i > 1:
                prev = x[:, :, ch - (i - 1) * per_h:ch + (i - 1) * per_h,
                         cw - (i - 1) * per_w:cw + (i - 1) * per_w]
                ring = inner.sum(dim=(2, 3)) - prev.sum(dim=(2, 3))
                area = inner.shape[2] * inner.shape[3] - prev.shape[2] * prev.shape[3]
                result.append(ring / area)
            else:
                result.append(inner.mean(dim=(2, 3)))
        return torch.stack(result, dim=2)

    def forward(self, x):
        x = self.model.forward_features(x)
        parts = self.get_part_pool(x)
        return [c(parts[:, :, i]) for i, c in enumerate(self.classifiers)]


class TwoViewLPN(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.model_1 = LPNBranch(opt)
        self.model_2 = self.model_1

    def forward(self, x1, x2):
        y1 = None if x1 is None else self.model_1(x1)
        y2 = None if x2 is None else self.model_2(x2)
        return y1, y2
