import torch
import torch.nn.functional as F

from net import ConvNet, EMATeacher

HPARAMS = dict(
    num_classes=5,
    labeled_bs=8,
    unlabeled_bs=16,
    steps=30,
    lr=0.05,
    ema_decay=0.99,
    consistency_weight=2.0,
    rampup_steps=15,
)


def augment(x):
    noise = 0.1 * torch.randn_like(x)
    shift = torch.randint(-2, 3, (2,)).tolist()
    return torch.roll(x, shifts=shift, dims=(2, 3)) + noise


def consistency_weight(step, hp):
    t = min(1.0, step / hp["rampup_steps"])
    return hp["consistency_weight"] * torch.exp(torch.tensor(-5.0 * (1 - t) ** 2)).item()


def train_step(student, teacher, optimizer, xl, yl, xu, step, hp):
    student.train()
    teacher.model.train()
    x_all = torch.cat([xl, xu])
    logits = student(augment(x_all))
    sup = F.cross_entropy(logits[: xl.size(0)], yl)

    with torch.no_grad():
        t_logits = teacher(augment(x_all))
    t_prob = F.softmax(t_logits, dim=1)
    cons = F.mse_loss(F.softmax(logits, dim=1), t_prob)

    loss = sup + consistency_weight(step, hp) * cons
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    teacher.update(student, step)
    return sup.item(), cons.item()


def main(hp):
    student = ConvNet(hp["num_classes"])
    teacher = EMATeacher(student, hp["ema_decay"])
    optimizer = torch.optim.SGD(student.parameters(), lr=hp["lr"], momentum=0.9, nesterov=True)
    for step in range(hp["steps"]):
        xl = torch.randn(hp["labeled_bs"], 3, 16, 16)
        yl = torch.randint(0, hp["num_classes"], (hp["labeled_bs"],))
        xu = torch.randn(hp["unlabeled_bs"], 3, 16, 16)
        sup, cons = train_step(student, teacher, optimizer, xl, yl, xu, step, hp)
        if step % 10 == 0:
            print(f"step {step} sup {sup:.4f} cons {cons:.5f}")
    return student, teacher


if __name__ == "__main__":
    torch.manual_seed(0)
    student, teacher = main(HPARAMS)
