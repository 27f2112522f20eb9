import copy
import math

import torch

from loss import DINOLoss
from networks import DINOHead, MLPBackbone, MultiCropWrapper

args = dict(epochs=3, iters_per_epoch=6, batch_size=16, local_crops=2,
            momentum_teacher=0.996, lr=1e-3, out_dim=128, clip_grad=3.0)


def cosine_scheduler(base, final, epochs, niter_per_ep):
    iters = torch.arange(epochs * niter_per_ep, dtype=torch.float64)
    return final + 0.5 * (base - final) * (1 + torch.cos(math.pi * iters / len(iters)))


def augment(x, scale):
    return x * scale + 0.1 * torch.randn_like(x)


def main():
    torch.manual_seed(0)
    student = MultiCropWrapper(MLPBackbone(), DINOHead(64, args["out_dim"]))
    teacher = copy.deepcopy(student)
    for p in teacher.parameters():
        p.requires_grad = False

    ncrops = 2 + args["local_crops"]
    dino_loss = DINOLoss(args["out_dim"], ncrops)
    optimizer = torch.optim.AdamW(student.parameters(), lr=args["lr"])
    momentum_schedule = cosine_scheduler(args["momentum_teacher"], 1.0,
                                         args["epochs"], args["iters_per_epoch"])

    data = torch.randn(args["iters_per_epoch"] * args["batch_size"], 32)
    for epoch in range(args["epochs"]):
        for it, images in enumerate(data.split(args["batch_size"])):
            step = epoch * args["iters_per_epoch"] + it
            crops = [augment(images, 1.0), augment(images, 0.9)]
            crops += [augment(images, 0.5) for _ in range(args["local_crops"])]

            teacher_output = teacher(crops[:2])
            student_output = student(crops)
            loss = dino_loss(student_output, teacher_output)

            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(student.parameters(), args["clip_grad"])
            optimizer.step()

            with torch.no_grad():
                m = momentum_schedule[step].item()
                for param_q, param_k in zip(student.parameters(), teacher.parameters()):
                    param_k.data.mul_(m).add_((1 - m) * param_q.detach().data)
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
