import torch
import torch.nn as nn
import torch.nn.functional as F

from distill import FeatureDistiller, build_optimizer


def conv(cin, cout, s=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, s, 1, bias=False), nn.BatchNorm2d(cout), nn.SiLU())


class Detector(nn.Module):
    def __init__(self, width=16, num_classes=3):
        super().__init__()
        self.stem = conv(3, width, 2)
        self.stage1 = conv(width, 2 * width, 2)
        self.stage2 = conv(2 * width, 4 * width, 2)
        self.head = nn.Conv2d(4 * width, num_classes + 4, 1)

    def forward(self, x):
        return self.head(self.stage2(self.stage1(self.stem(x))))


def detection_loss(pred, targets):
    cls_logits, box = pred[:, :-4], pred[:, -4:]
    return F.binary_cross_entropy_with_logits(cls_logits, targets["cls"]) + F.l1_loss(box, targets["box"])


torch.manual_seed(0)
student = Detector(width=8)
torch.manual_seed(1)
teacher = Detector(width=16)
teacher.eval()

for model in (student, teacher):
    for k, v in model.named_parameters():
        v.requires_grad = True

distiller = FeatureDistiller(student, teacher, ["stage1", "stage2"], channels_s=[16, 32], channels_t=[32, 64])
distiller.register_hooks()
optimizer = build_optimizer(student, teacher, distiller, lr=0.01)

torch.manual_seed(2)
for epoch in range(2):
    for i in range(4):
        imgs = torch.randn(4, 3, 32, 32)
        targets = {"cls": torch.randint(0, 2, (4, 3, 4, 4)).float(), "box": torch.rand(4, 4, 4, 4)}
        pred = student(imgs)
        teacher(imgs)
        loss_det = detection_loss(pred, targets)
        loss_distill = distiller.loss()
        loss = loss_det + 0.5 * loss_distill
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} iter {i}: det {loss_det.item():.4f} distill {loss_distill.item():.4f}")
distiller.remove_hooks()
