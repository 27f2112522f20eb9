import torch
import torch.nn.functional as F

from net import ConvNet, ModelEMA

NUM_CLASSES = 5
LABELED_BS = 8
UNLABELED_BS = 16
CONS_WEIGHT = 10.0
RAMPUP_STEPS = 10


def sigmoid_rampup(step, length):
    if length == 0:
        return 1.0
    t = max(0.0, min(float(step), length)) / length
    return float(torch.exp(torch.tensor(-5.0 * (1.0 - t) ** 2)))


def augment(x):
    noise = 0.1 * torch.randn_like(x)
    out = x + noise
    flip = torch.rand(x.size(0)) < 0.5
    out[flip] = out[flip].flip(-1)
    return out


def softmax_mse(student_logits, teacher_logits):
    return F.mse_loss(F.softmax(student_logits, 1), F.softmax(teacher_logits, 1), reduction="sum") / student_logits.size(0)


def main():
    torch.manual_seed(0)
    student = ConvNet(NUM_CLASSES)
    teacher = ModelEMA(student, decay=0.99)
    opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, nesterov=True)

    for step in range(16):
        x_l = torch.randn(LABELED_BS, 3, 16, 16)
        y_l = torch.randint(0, NUM_CLASSES, (LABELED_BS,))
        x_u = torch.randn(UNLABELED_BS, 3, 16, 16)

        x_all = torch.cat([x_l, x_u])
        targets = torch.cat([y_l, torch.full((UNLABELED_BS,), -1, dtype=torch.long)])

        student_logits = student(augment(x_all))
        with torch.no_grad():
            teacher_logits = teacher.module(augment(x_all))

        class_loss = F.cross_entropy(student_logits, targets, ignore_index=-1)
        w = CONS_WEIGHT * sigmoid_rampup(step, RAMPUP_STEPS)
        cons_loss = softmax_mse(student_logits, teacher_logits)
        loss = class_loss + w * cons_loss

        opt.zero_grad()
        loss.backward()
        opt.step()
        teacher.update(student)

        if step % 5 == 0:
            print(f"step {step:02d} class={class_loss.item():.4f} cons={cons_loss.item():.4f} w={w:.3f}")

    return student, teacher


if __name__ == "__main__":
    student, teacher = main()
