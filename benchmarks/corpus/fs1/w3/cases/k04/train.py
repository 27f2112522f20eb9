import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from model import DINOHead, MultiCropWrapper, build_vit

cfg = dict(img_size=32, patch_size=8, embed_dim=96, depth=4, num_heads=3,
           out_dim=256, lr=5e-4, weight_decay=0.04, momentum_teacher=0.99,
           epochs=2, steps_per_epoch=4, batch_size=8)


class DINOLoss(nn.Module):
    def __init__(self, out_dim, student_temp=0.1, teacher_temp=0.04, center_momentum=0.9):
        super().__init__()
        self.student_temp, self.teacher_temp = student_temp, teacher_temp
        self.center_momentum = center_momentum
        self.register_buffer("center", torch.zeros(1, out_dim))

    def forward(self, student_out, teacher_out):
        teacher_probs = [F.softmax((t - self.center) / self.teacher_temp, dim=-1).detach() for t in teacher_out]
        total, n = 0.0, 0
        for iq, q in enumerate(teacher_probs):
            for iv, s in enumerate(student_out):
                if iv == iq:
                    continue
                total = total + torch.sum(-q * F.log_softmax(s / self.student_temp, dim=-1), dim=-1).mean()
                n += 1
        self.update_center(torch.cat(teacher_out))
        return total / n

    @torch.no_grad()
    def update_center(self, teacher_output):
        batch_center = teacher_output.mean(dim=0, keepdim=True)
        self.center.mul_(self.center_momentum).add_(batch_center * (1 - self.center_momentum))


def get_params_groups(model):
    regularized, not_regularized = [], []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        if name.endswith(".bias") or param.ndim == 1:
            not_regularized.append(param)
        else:
            regularized.append(param)
    return [{"params": regularized}, {"params": not_regularized, "weight_decay": 0.0}]


def augment(images):
    flip = torch.rand(images.size(0), 1, 1, 1) < 0.5
    out = torch.where(flip, images.flip(-1), images)
    return out + 0.1 * torch.randn_like(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    student = MultiCropWrapper(build_vit(cfg, drop_path_rate=0.1), DINOHead(cfg["embed_dim"], cfg["out_dim"]))
    teacher = MultiCropWrapper(build_vit(cfg), DINOHead(cfg["embed_dim"], cfg["out_dim"]))
    teacher.load_state_dict(student.state_dict())
    for p in teacher.parameters():
        p.requires_grad = False

    dino_loss = DINOLoss(cfg["out_dim"])
    optimizer = torch.optim.AdamW(get_params_groups(student), lr=cfg["lr"], weight_decay=cfg["weight_decay"])
    dataset = torch.randn(64, 3, cfg["img_size"], cfg["img_size"])

    for epoch in range(cfg["epochs"]):
        for it in range(cfg["steps_per_epoch"]):
            images = dataset[torch.randint(0, len(dataset), (cfg["batch_size"],))]
            crops = [augment(images), augment(images)]
            with torch.no_grad():
                teacher_output = teacher(crops)
            student_output = student(crops)
            loss = dino_loss(student_output, teacher_output)

            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(student.parameters(), 3.0)
            optimizer.step()

            with torch.no_grad():
                m = cfg["momentum_teacher"]
                for param_q, param_k in zip(student.parameters(), teacher.parameters()):
                    param_k.data.mul_(m).add_((1 - m) * param_q.detach().data)
            print(f"epoch {epoch} it {it} loss {loss.item():.4f}")
