import torch
import torch.nn.functional as F

from networks import ConvNet, EMATeacher

HPARAMS = dict(steps=12, labeled_bs=8, unlabeled_bs=16, lr=0.05, ema_decay=0.95,
               consistency_weight=2.0, rampup=6)


def augment(x):
    noise = 0.1 * torch.randn_like(x)
    out = x + noise
    flip = torch.rand(x.size(0)) < 0.5
    out[flip] = out[flip].flip(-1)
    return out


def consistency_weight(step, hp):
    ramp = min(1.0, (step + 1) / hp["rampup"])
    return hp["consistency_weight"] * ramp


def main(hp):
    student = ConvNet()
    teacher = EMATeacher(student, decay=hp["ema_decay"])
    opt = torch.optim.SGD(student.parameters(), lr=hp["lr"], momentum=0.9, nesterov=True)

    for step in range(hp["steps"]):
        x_l = torch.randn(hp["labeled_bs"], 3, 16, 16)
        y_l = torch.randint(0, 5, (hp["labeled_bs"],))
        x_u = torch.randn(hp["unlabeled_bs"], 3, 16, 16)

        student.train()
        logits_l = student(augment(x_l))
        logits_u = student(augment(x_u))
        targets_u = F.softmax(teacher(augment(x_u)), dim=1)

        sup = F.cross_entropy(logits_l, y_l)
        cons = F.mse_loss(F.softmax(logits_u, dim=1), targets_u)
        loss = sup + consistency_weight(step, hp) * cons

        opt.zero_grad()
        loss.backward()
        opt.step()
        teacher.update(student)
        print(f"step {step:2d}  sup {sup.item():.4f}  cons {cons.item():.5f}")
    return student, teacher


if __name__ == "__main__":
    torch.manual_seed(0)
    student, teacher = main(HPARAMS)
